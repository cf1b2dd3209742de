import type { ErrorCode } from '@payments/shared';

/**
 * Codes the client adds for failures that never produced a problem document. `interrupted`: a streamed answer
 * (a download, a count) that stopped before its end; its detail says what was lost.
 */
type ClientErrorCode = 'network_error' | 'bad_response' | 'interrupted';

/**
 * A failed API call as a value with a code: the BFF's problem+json `code`, or a client-side one. Thrown only
 * because TanStack Query expects query functions to reject; callers branch on `code`, never on the message.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: ErrorCode | ClientErrorCode;
  readonly detail: string;
  readonly retryAfterSeconds: number | null;
  /** The problem's members beyond RFC 9457's and `code` (a slowed sign-in's `turn_in_seconds`). */
  readonly extra: Readonly<Record<string, unknown>>;

  constructor(
    status: number,
    code: ErrorCode | ClientErrorCode,
    detail: string,
    retryAfterSeconds = null as number | null,
    extra: Readonly<Record<string, unknown>> = {},
  ) {
    super(`${code}: ${detail}`);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.detail = detail;
    this.retryAfterSeconds = retryAfterSeconds;
    this.extra = extra;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/**
 * Whether asking again may help: not when the user has no access to the company (the switcher is the way out),
 * nor when the filters themselves were refused (changing them is).
 */
export function retryCanHelp(error: unknown): boolean {
  return !(
    isApiError(error) &&
    (error.code === 'forbidden_company' ||
      error.code === 'invalid_parameter' ||
      error.code === 'range_too_wide')
  );
}

/** A sentence a finance user can act on, for each code the dashboard may meet. */
export function errorMessage(error: unknown): string {
  if (!isApiError(error)) return 'Something went wrong. Try again.';
  switch (error.code) {
    case 'forbidden_company':
      return 'You do not have access to this company. Choose another company in the switcher.';
    case 'unauthenticated':
      return 'Your session has ended. Sign in again.';
    case 'invalid_credentials':
      return 'Wrong username or password.';
    case 'totp_required':
      return 'Enter the 6-digit code from your authenticator app.';
    case 'rate_limited':
      return error.retryAfterSeconds
        ? `Too many requests. Try again in ${error.retryAfterSeconds} s.`
        : 'Too many requests. Try again in a moment.';
    case 'upstream_unavailable':
    case 'upstream_timeout':
    case 'upstream_bad_response':
    case 'upstream_rejected_credentials':
    case 'service_unavailable':
      return 'The payments service is not answering right now. Try again.';
    case 'shared_state_unavailable':
      return 'Sessions are briefly unavailable. Try again shortly.';
    case 'network_error':
      return 'The dashboard cannot reach its server. Check the connection and try again.';
    case 'bad_response':
      return 'The server sent an answer the dashboard does not understand.';
    case 'invalid_parameter':
      return `The server refused the request: ${error.detail}`;
    case 'range_too_wide':
      return `The date range is too wide to list: ${error.detail}`;
    case 'cursor_mismatch':
    case 'invalid_cursor':
      return 'This list is out of date. Refresh to start again.';
    // one count and one search run per user: a newer one, wherever it was asked, stops the one before
    case 'summary_superseded':
      return 'you asked for other figures since, here or in another tab, and only your latest count runs. Retry to count these again.';
    case 'search_superseded':
      return 'you started another search since, here or in another tab, and only your latest search runs. Search again to finish this one.';
    case 'cursor_expired':
      return 'The position in this list has expired. Refresh to start again.';
    default:
      return error.detail || 'Something went wrong. Try again.';
  }
}
