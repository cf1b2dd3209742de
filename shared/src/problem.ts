import { z } from 'zod/mini';
import { ERROR_CODES, type ErrorCode } from './rules.ts';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/** RFC 9457 problem details, plus the machine-readable `code`. */
export const problemSchema = z.looseObject({
  type: z.string(),
  title: z.string(),
  status: z.number().check(z.refine((n) => Number.isInteger(n) && n >= 400 && n <= 599)),
  detail: z.string(),
  code: z.enum(ERROR_CODES),
});
export type Problem = z.infer<typeof problemSchema>;

const TITLES: Record<ErrorCode, string> = {
  invalid_parameter: 'Invalid parameter',
  invalid_cursor: 'Invalid cursor',
  cursor_mismatch: 'Cursor does not match the filters',
  cursor_expired: 'The list position has expired',
  forbidden_company: 'Company not allowed',
  unauthenticated: 'Sign-in required',
  invalid_credentials: 'Wrong username or password',
  totp_required: 'Sign-in code required',
  csrf_required: 'Anti-forgery header missing',
  rate_limited: 'Too many requests',
  busy: 'Busy',
  range_too_wide: 'Date range too wide',
  sort_too_large: 'Too many payments to sort',
  summary_superseded: 'A newer count replaced this one',
  search_superseded: 'A newer search replaced this one',
  gone: 'Gone',
  not_found: 'Not found',
  method_not_allowed: 'Method not allowed',
  internal_error: 'Internal error',
  service_unavailable: 'Service unavailable',
  shared_state_unavailable: 'Sessions briefly unavailable',
  upstream_unavailable: 'Payments service unavailable',
  upstream_timeout: 'Payments service timed out',
  upstream_rejected_credentials: 'Payments service rejected our credentials',
  upstream_bad_response: 'Payments service sent a bad response',
};

/** Builds a problem body; extra members (such as `errors`) are allowed by RFC 9457. */
export function problem(
  code: ErrorCode,
  status: number,
  detail: string,
  extra: Record<string, unknown> = {},
): Problem {
  return {
    type: `urn:payments-dashboard:problem:${code}`,
    title: TITLES[code],
    status,
    detail,
    code,
    ...extra,
  };
}
