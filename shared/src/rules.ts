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

const isText = (value: unknown) => typeof value === 'string';
const isTextOrNull = (value: unknown) => value === null || typeof value === 'string';
// JSON can spell a number too large for a double (1e999): it parses to Infinity, which is no amount.
const isFiniteNumber = (value: unknown) => typeof value === 'number' && Number.isFinite(value);

/** The type rule of each known payment field (all optional but `id`); `paymentSchema` states the same. */
const PAYMENT_FIELD_RULES: Record<(typeof KNOWN_PAYMENT_FIELDS)[number], (value: unknown) => boolean> = {
  id: (value) => (typeof value === 'string' && value !== '') || isFiniteNumber(value),
  company_id: isText,
  status: isText,
  amount: isFiniteNumber,
  currency: isText,
  created_at: isText,
  description: isTextOrNull,
  counterparty: isTextOrNull,
  reference: isTextOrNull,
};

/**
 * Why `record` is not a payment as `paymentSchema` accepts it, or `null` when it is one: an object with an `id`,
 * its known fields of their types when present, unknown fields passing. Reads the record, never copies it.
 */
export function paymentProblem(record: unknown): string | null {
  if (typeof record !== 'object' || record === null || Array.isArray(record)) return 'is not an object';
  const fields = record as Record<string, unknown>;
  if (fields.id === undefined) return 'id is missing';
  for (const name of KNOWN_PAYMENT_FIELDS) {
    const value = fields[name];
    if (value !== undefined && !PAYMENT_FIELD_RULES[name](value)) return `${name} is malformed`;
  }
  return null;
}

/**
 * Why `body` is not a page of payments (the envelope with both rules, and every record a payment), or `null`
 * when it is one: what `paymentPageSchema` decides, without building a copy of the page.
 */
export function paymentPageProblem(body: unknown): string | null {
  const envelope = pageEnvelopeProblem(body);
  if (envelope !== null) return envelope;
  const records = (body as { data: unknown[] }).data;
  for (let i = 0; i < records.length; i++) {
    const problem = paymentProblem(records[i]);
    if (problem !== null) return `data[${i}] ${problem}`;
  }
  return null;
}
