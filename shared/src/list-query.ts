import { z } from 'zod';

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

export const statusSchema = z
  .string()
  .regex(STATUS_PATTERN, 'must be 1–32 upper-case letters or underscores');

export const dateTimeSchema = z
  .string()
  .refine(isDateTime, 'must be a real date-time written as YYYY-MM-DDTHH:MM:SS');

export const cursorSchema = z.string().regex(CURSOR_PATTERN, 'is not a cursor this service issued');

/** A `limit` as it arrives in a query string: a plain decimal integer within the bounds. */
export const limitParamSchema = z
  .string()
  .regex(/^\d{1,3}$/, `must be an integer from ${LIMIT_MIN} to ${LIMIT_MAX}`)
  .transform(Number)
  .pipe(
    z
      .number()
      .int()
      .min(LIMIT_MIN, `must be an integer from ${LIMIT_MIN} to ${LIMIT_MAX}`)
      .max(LIMIT_MAX, `must be an integer from ${LIMIT_MIN} to ${LIMIT_MAX}`),
  );

/** The filters of one pagination session: changing any of them starts a new session. */
export const listFiltersSchema = z.strictObject({
  status: statusSchema.optional(),
  date_from: dateTimeSchema.optional(),
});
export type ListFilters = z.infer<typeof listFiltersSchema>;

/**
 * The list query as it arrives in a URL (`GET /payments/`, `GET /api/payments`): strings in, typed values out.
 * Unknown parameters are rejected by the callers that care (the sandbox accepts the deprecated pair too).
 */
export const listQuerySchema = z.object({
  limit: limitParamSchema.default(LIMIT_DEFAULT),
  cursor: cursorSchema.optional(),
  status: statusSchema.optional(),
  date_from: dateTimeSchema.optional(),
});
export type ListQuery = z.output<typeof listQuerySchema>;

/** Turns a URL's query into the plain record `listQuerySchema` expects; a repeated parameter is an error. */
export function queryRecord(params: URLSearchParams): { record: Record<string, string>; repeated: string[] } {
  // No prototype: a parameter named `__proto__` must stay an ordinary (and, to strict schemas, unknown) key.
  const record: Record<string, string> = Object.create(null);
  const repeated: string[] = [];
  for (const [key, value] of params) {
    if (Object.hasOwn(record, key)) repeated.push(key);
    record[key] = value;
  }
  return { record, repeated };
}
