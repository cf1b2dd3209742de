import { z } from 'zod';
import { CURSOR_PATTERN, isDateTime, LIMIT_DEFAULT, LIMIT_MAX, LIMIT_MIN, STATUS_PATTERN } from './rules.ts';

/**
 * Each list parameter's rule on its text as it arrives in a URL, with the reason given when it fails. The schemas
 * below are built from these, and code that checks a query without zod (the BFF's hot path) uses them directly.
 */
export const LIST_PARAM_RULES = {
  limit: {
    // A plain decimal integer within the bounds: no sign, no exponent, no spaces.
    test: (text: string) => /^\d{1,3}$/.test(text) && Number(text) >= LIMIT_MIN && Number(text) <= LIMIT_MAX,
    message: `must be an integer from ${LIMIT_MIN} to ${LIMIT_MAX}`,
  },
  cursor: {
    test: (text: string) => CURSOR_PATTERN.test(text),
    message: 'is not a cursor this service issued',
  },
  status: {
    test: (text: string) => STATUS_PATTERN.test(text),
    message: 'must be 1–32 upper-case letters or underscores',
  },
  date_from: { test: isDateTime, message: 'must be a real date-time written as YYYY-MM-DDTHH:MM:SS' },
} as const;

const ruleSchema = (rule: { test: (text: string) => boolean; message: string }) =>
  z.string().refine(rule.test, rule.message);

export const statusSchema = ruleSchema(LIST_PARAM_RULES.status);
export const dateTimeSchema = ruleSchema(LIST_PARAM_RULES.date_from);
export const cursorSchema = ruleSchema(LIST_PARAM_RULES.cursor);

/** A `limit` as it arrives in a query string: a plain decimal integer within the bounds. */
export const limitParamSchema = ruleSchema(LIST_PARAM_RULES.limit).transform(Number);

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
