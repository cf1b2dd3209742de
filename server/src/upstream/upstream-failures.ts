import type { ErrorCode } from '@payments/shared';

export interface UpstreamFailure {
  code: ErrorCode;
  /** The status the BFF answers with. */
  status: 400 | 403 | 502 | 503 | 504;
  detail: string;
  retryAfterSeconds?: number;
  /** The browser went away; nobody reads the answer. */
  aborted?: boolean;
}

/** How an attempt that brought no page ended. */
export type FailedAttempt =
  | { kind: 'status'; status: number; retryAfterMs: number | undefined; contentType: string }
  | { kind: 'bad'; detail: string; retryable: boolean }
  | { kind: 'network'; detail: string }
  | { kind: 'timeout' };

export function abortedFailure(): UpstreamFailure {
  return { code: 'upstream_unavailable', status: 502, detail: 'the request was cancelled', aborted: true };
}

/** Maps the last outcome to the problem the browser sees; upstream bodies are never echoed. */
export function failureOf(outcome: FailedAttempt, sentCursor: boolean): UpstreamFailure {
  switch (outcome.kind) {
    case 'timeout':
      return { code: 'upstream_timeout', status: 504, detail: 'the payments service did not answer in time' };
    case 'network':
      return { code: 'upstream_unavailable', status: 502, detail: 'the payments service cannot be reached' };
    case 'bad':
      return {
        code: 'upstream_bad_response',
        status: 502,
        detail: 'the payments service sent a response that does not follow its interface',
      };
    case 'status':
      return statusFailure(outcome.status, outcome.retryAfterMs, sentCursor);
  }
}

/** Statuses that, answering a request with a cursor, can only mean the cursor was refused (the spec does not say which). */
const CURSOR_REFUSALS = new Set([400, 404, 409, 410, 422]);

function statusFailure(
  status: number,
  retryAfterMs: number | undefined,
  sentCursor: boolean,
): UpstreamFailure {
  if (status === 401)
    return {
      code: 'upstream_rejected_credentials',
      status: 502,
      detail: 'the payments service rejected the dashboard credentials; an administrator must check them',
    };
  if (status === 403)
    return { code: 'forbidden_company', status: 403, detail: 'the payments service refused this company' };
  if (status === 429)
    return {
      code: 'rate_limited',
      status: 503,
      detail: 'the payments service is limiting requests; try again shortly',
      retryAfterSeconds: Math.max(1, Math.ceil((retryAfterMs ?? 5_000) / 1000)),
    };
  if (status === 504)
    return { code: 'upstream_timeout', status: 504, detail: 'the payments service timed out' };
  if (status >= 500)
    return { code: 'upstream_unavailable', status: 502, detail: 'the payments service is failing' };
  // Every parameter was validated before it left, but an upstream may know fewer statuses than the dashboard
  // lets a user type: a request without a cursor refused as bad is refused for its filters.
  if (!sentCursor && (status === 400 || status === 422))
    return {
      code: 'invalid_parameter',
      status: 400,
      detail: 'the payments service does not accept these filters (a status it does not know?)',
    };
  // A refusal of a request with a cursor is of the cursor.
  if (sentCursor && CURSOR_REFUSALS.has(status))
    return {
      code: 'cursor_mismatch',
      status: 400,
      detail:
        'the payments service no longer accepts this position in the list; start again from the first page',
    };
  return {
    code: 'upstream_bad_response',
    status: 502,
    detail: `the payments service answered with an unexpected status ${status}`,
  };
}

export function errorCode(error: unknown): string {
  if (typeof error !== 'object' || error === null) return 'unknown';
  const e = error as { code?: unknown; name?: unknown; cause?: unknown };
  if (e.cause !== undefined && e.cause !== error) {
    const inner = errorCode(e.cause);
    if (inner !== 'unknown') return inner;
  }
  if (typeof e.code === 'string') return e.code;
  return typeof e.name === 'string' ? e.name : 'unknown';
}
