import { z } from 'zod';
import { CURSOR_PATTERN, isDateTime, LIMIT_DEFAULT, LIMIT_MAX, LIMIT_MIN, STATUS_PATTERN } from './rules.ts';

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
