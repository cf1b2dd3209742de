import { type ErrorCode, PROBLEM_CONTENT_TYPE, problem } from '@payments/shared';
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

/**
 * An RFC 9457 problem+json response; the one way the BFF answers with an error. Built with `c.json` so that
 * `hono/client` sees the problem body in each route's types (the content type is still problem+json).
 */
export function problemResponse<S extends ContentfulStatusCode>(
  c: Context,
  code: ErrorCode,
  status: S,
  detail: string,
  options: { retryAfterSeconds?: number | undefined; extra?: Record<string, unknown> } = {},
) {
  // For the request log, which names the code of every refusal.
  c.set('problem', code);
  const headers: Record<string, string> = { 'content-type': PROBLEM_CONTENT_TYPE };
  if (options.retryAfterSeconds !== undefined) headers['retry-after'] = String(options.retryAfterSeconds);
  return c.json(problem(code, status, detail, options.extra), status, headers);
}

/** A refusal decided away from HTTP (a view out of the user's scope, an upstream failure) as its problem. */
export function problemFrom<S extends ContentfulStatusCode>(
  c: Context,
  refusal: { code: ErrorCode; status: S; detail: string; retryAfterSeconds?: number | undefined },
) {
  return problemResponse(c, refusal.code, refusal.status, refusal.detail, {
    retryAfterSeconds: refusal.retryAfterSeconds,
  });
}
