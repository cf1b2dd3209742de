/** The contract's constants and plain rules; the schemas in the other modules are built from these. */

/** Page-size rules of the Payments API v1 (spec part 8); the BFF and the sandbox enforce the same. */
export const LIMIT_MIN = 1;
export const LIMIT_MAX = 100;
export const LIMIT_DEFAULT = 50;
/** The page sizes the dashboard offers. */
export const PAGE_SIZES = [25, 50, 100] as const;

/**
 * A status as a filter value. The spec shows `COMPLETED` and `AWAITING` and leaves the full set open, so any word
 * an upstream may use passes (`PARTIALLY_REFUNDED_PENDING_REVIEW`, `chargeback_open`); nothing that would need
 * escaping does.
 */
export const STATUS_PATTERN = /^[A-Za-z0-9_.:-]{1,64}$/;
/** Statuses seen in the spec and the sandbox. The real upstream may return others. */
export const KNOWN_STATUSES = ['COMPLETED', 'AWAITING', 'FAILED', 'CANCELLED'] as const;

/** `YYYY-MM-DDTHH:MM:SS`, no zone designator (spec part 4). */
export const DATE_TIME_PATTERN = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})$/;

/**
 * Cursors are opaque but printable: visible ASCII only, bounded in length (a group's cursor carries a position per
 * company).
 */
export const CURSOR_PATTERN = /^[\x21-\x7e]{1,8192}$/;

/** True when `value` has the exact `YYYY-MM-DDTHH:MM:SS` shape and names a real calendar instant. */
export function isDateTime(value: string): boolean {
  const match = DATE_TIME_PATTERN.exec(value);
  if (!match) return false;
  const [, y, mo, d, h, mi, s] = match.map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (h > 23 || mi > 59 || s > 59) return false;
  const date = new Date(Date.UTC(2000, mo - 1, d, h, mi, s));
  // Date.UTC maps years 0–99 to 1900–1999; setting the year afterwards keeps the year as written.
  date.setUTCFullYear(y, mo - 1, d);
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/** True when `zone` is a time zone this runtime knows (IANA names such as `Europe/Berlin`, and `UTC`). */
export function isTimeZone(zone: string): boolean {
  if (zone.length === 0 || zone.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** The request header the BFF requires on every `/api` call (anti-forgery, as in Duende's BFF). */
export const CSRF_HEADER = 'X-CSRF';
export const COMPANY_HEADER = 'X-Company-Id';
/**
 * A cookie the app can read (no secret in it: `1`), set with the session and cleared with it, so that a visit
 * without one makes a single session check instead of asking for data that would only be refused.
 */
export const SIGNED_IN_HINT_COOKIE = 'signed_in';
/** A code from an authenticator app (TOTP, RFC 6238): six digits. */
export const TOTP_CODE_PATTERN = /^\d{6}$/;
/**
 * `1` on a request that carries no news of the user (the freshness poll, a refetch the app makes by itself, a
 * check of the idle time): it does not count as use for the idle timeout. The web app sends it on every request
 * but those following something the user did.
 */
export const BACKGROUND_HEADER = 'X-Background';
/**
 * On every answer to a signed-in request: the whole seconds the session stays on without use (`SESSION_IDLE_TIMEOUT`
 * after a request that counted as use, what is left of it after a background one). The app warns before it ends.
 */
export const SESSION_IDLE_LEFT_HEADER = 'X-Session-Idle-Left';
/** The `reason` of the 401 `unauthenticated` problem answered for a session that ran out of idle time. */
export const SESSION_ENDED_IDLE = 'idle';

export const ENVIRONMENTS = ['sandbox', 'production'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

/**
 * Every error code either server speaks. The BFF's codes are those of DESIGN.md; the sandbox adds its own
 * (`invalid_cursor`, `gone`, …) because it is an upstream with its own vocabulary.
 */
export const ERROR_CODES = [
  'invalid_parameter',
  'invalid_cursor',
  'cursor_mismatch',
  'cursor_expired',
  'forbidden_company',
  'unauthenticated',
  'invalid_credentials',
  'totp_required',
  'csrf_required',
  'rate_limited',
  'busy',
  'range_too_wide',
  'sort_too_large',
  'summary_superseded',
  'search_superseded',
  'gone',
  'not_found',
  'method_not_allowed',
  'internal_error',
  'service_unavailable',
  'shared_state_unavailable',
  'upstream_unavailable',
  'upstream_timeout',
  'upstream_rejected_credentials',
  'upstream_bad_response',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** Company ids travel in the `X-Company-Id` header: printable ASCII without spaces, bounded. */
export const COMPANY_ID_PATTERN = /^[A-Za-z0-9_.:-]{1,64}$/;
/** The payment fields the dashboard interprets when their shape is recognised; any other field passes as it is. */
export const KNOWN_PAYMENT_FIELDS = [
  'id',
  'company_id',
  'status',
  'amount',
  'currency',
  'created_at',
  'description',
  'counterparty',
  'reference',
] as const;

/** How a sorted view is ordered: `created_at:desc` is the upstream's own order; any other is sorted by the BFF. */
export const SORTS = [
  'created_at:desc',
  'created_at:asc',
  'amount:desc',
  'amount:asc',
  'counterparty:asc',
  'counterparty:desc',
  'status:asc',
  'status:desc',
] as const;
export type Sort = (typeof SORTS)[number];
