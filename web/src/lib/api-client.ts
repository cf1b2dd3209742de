import type { AppType } from '@payments/server/bff';
import { CSRF_HEADER, ERROR_CODES } from '@payments/shared/rules';
import { hc } from 'hono/client';
import { ApiError } from './api-error.ts';
import type { AnswerCheck } from './bff-answers.ts';
import { reportSessionExpired } from './session-expiry.ts';

function retryAfter(response: Response): number | null {
  const value = Number(response.headers.get('Retry-After'));
  return Number.isFinite(value) && value > 0 ? value : null;
}

async function toApiError(response: Response): Promise<ApiError> {
  const body: unknown = await response.json().catch(() => null);
  // A problem with a code this build does not know (or no problem at all) still carries a status worth acting on.
  const fallback =
    response.status === 401
      ? 'unauthenticated'
      : response.status === 403
        ? 'forbidden_company'
        : 'bad_response';
  const loose = body as { detail?: unknown; code?: unknown } | null;
  const known = typeof loose?.code === 'string' && (ERROR_CODES as readonly string[]).includes(loose.code);
  return new ApiError(
    response.status,
    known ? (loose?.code as ApiError['code']) : fallback,
    typeof loose?.detail === 'string' ? loose.detail : response.statusText,
    retryAfter(response),
  );
}

/**
 * The `fetch` every BFF call goes through: same origin with the session cookie, the anti-forgery header, and
 * problem+json errors turned into `ApiError` values. A 401 means the session expired — except on the session
 * routes themselves (`quiet`), where "not signed in" is an ordinary answer.
 */
function bffFetch(quiet: boolean): typeof fetch {
  return async (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set(CSRF_HEADER, '1');
    if (!headers.has('Accept')) headers.set('Accept', 'application/json');
    let response: Response;
    try {
      response = await fetch(input, { ...init, headers, credentials: 'same-origin' });
    } catch (error) {
      if (init?.signal?.aborted) throw error;
      throw new ApiError(0, 'network_error', error instanceof Error ? error.message : 'network error');
    }
    if (response.ok) return response;
    const error = await toApiError(response);
    if (error.status === 401 && error.code === 'unauthenticated' && !quiet) reportSessionExpired();
    throw error;
  };
}

/** The BFF's routes, typed from the server's `AppType` (a type-only import: no server code ships). */
export const bff = hc<AppType>('/', { fetch: bffFetch(false) });
/** For the session routes, where a 401 is an answer rather than an expiry. */
export const quietFetch = bffFetch(true);

/** Reads a JSON answer and checks it at the edge (see bff-answers.ts). */
export async function readJson<T>(response: Response, check: AnswerCheck<T>): Promise<T> {
  const body: unknown = await response.json().catch(() => undefined);
  const problem = body === undefined ? 'not JSON' : check(body);
  if (problem !== null) {
    throw new ApiError(response.status, 'bad_response', `unexpected answer from ${response.url}: ${problem}`);
  }
  return body as T;
}
