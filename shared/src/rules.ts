/**
 * The contract's constants and plain rules, without zod: what the browser needs at run time. The schemas in the
 * other modules are built from these, so both sides apply the same rules; the web app imports this module
 * (`@payments/shared/rules`) and only types from the rest, so no schema library ships in its first view.
 */

/** Page-size rules of the Payments API v1 (spec part 8); the BFF and the sandbox enforce the same. */
export const LIMIT_MIN = 1;
export const LIMIT_MAX = 100;
export const LIMIT_DEFAULT = 50;
/** The page sizes the dashboard offers. */
export const PAGE_SIZES = [25, 50, 100] as const;

/** Status values are upper-case words; the full set is not specified, so any such value is accepted. */
export const STATUS_PATTERN = /^[A-Z_]{1,32}$/;
/** Statuses seen in the spec and the sandbox. The real upstream may return others. */
export const KNOWN_STATUSES = ['COMPLETED', 'AWAITING', 'FAILED', 'CANCELLED'] as const;

/** `YYYY-MM-DDTHH:MM:SS`, no zone designator (spec part 4). */
export const DATE_TIME_PATTERN = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})$/;

/** Cursors are opaque but printable: visible ASCII only, bounded in length. */
export const CURSOR_PATTERN = /^[\x21-\x7e]{1,2048}$/;

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

/** The request header the BFF requires on every `/api` call (anti-forgery, as in Duende's BFF). */
export const CSRF_HEADER = 'X-CSRF';
export const COMPANY_HEADER = 'X-Company-Id';

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
  'forbidden_company',
  'unauthenticated',
  'invalid_credentials',
  'csrf_required',
  'rate_limited',
  'gone',
  'not_found',
  'method_not_allowed',
  'internal_error',
  'service_unavailable',
  'upstream_unavailable',
  'upstream_timeout',
  'upstream_rejected_credentials',
  'upstream_bad_response',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** Company ids travel in the `X-Company-Id` header: printable ASCII without spaces, bounded. */
export const COMPANY_ID_PATTERN = /^[A-Za-z0-9_.:-]{1,64}$/;
/**
 * The payment fields the dashboard knows how to show, in the order the upstream sends them; `paymentSchema`
 * types exactly these (a test keeps the two equal).
 */
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

export const HAS_MORE_RULE =
  'has_more and next_cursor disagree: has_more=false requires next_cursor=null and has_more=true a string';

/** The envelope's two rules in one: `has_more=false` ⇔ `next_cursor=null`. */
export function hasMoreAgrees(hasMore: boolean, nextCursor: string | null): boolean {
  return hasMore === (nextCursor !== null);
}

/**
 * Why `body` is not a page envelope (spec part 2, with both rules: `has_more=false` ⇔ `next_cursor=null`), or
 * `null` when it is one. Items are not looked into: that is the caller's part.
 */
export function pageEnvelopeProblem(body: unknown): string | null {
  if (typeof body !== 'object' || body === null) return 'the page is not an object';
  const page = body as { data?: unknown; next_cursor?: unknown; has_more?: unknown };
  if (!Array.isArray(page.data)) return 'data is not a list';
  if (typeof page.has_more !== 'boolean') return 'has_more is not a boolean';
  if (page.next_cursor !== null && (typeof page.next_cursor !== 'string' || page.next_cursor === ''))
    return 'next_cursor is neither null nor a cursor';
  if (!hasMoreAgrees(page.has_more, page.next_cursor)) return HAS_MORE_RULE;
  return null;
}
