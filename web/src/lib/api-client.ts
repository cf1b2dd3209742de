import type { AppType } from '@payments/server/bff';
import { describeIssue, problemSchema } from '@payments/shared';
import {
  BACKGROUND_HEADER,
  CSRF_HEADER,
  SESSION_ENDED_IDLE,
  SESSION_IDLE_LEFT_HEADER,
} from '@payments/shared/rules';
import { hc } from 'hono/client';
import { ApiError } from './api-error.ts';
import { newsNotDelivered, noteIdleLeft, takeNewsOfUser } from './session-clock.ts';
import { reportSessionExpired } from './session-expiry.ts';

/** A shared zod/mini schema, as far as reading an answer needs it. */
export interface AnswerSchema<T> {
  safeParse(
    body: unknown,
  ):
    | { success: true; data: T }
    | { success: false; error: { issues: Parameters<typeof describeIssue>[0][] } };
}

function retryAfter(response: Response): number | null {
  const value = Number(response.headers.get('Retry-After'));
  return Number.isFinite(value) && value > 0 ? value : null;
}

async function toApiError(response: Response): Promise<ApiError> {
  const body: unknown = await response.json().catch(() => null);
  const problem = problemSchema.safeParse(body);
  if (problem.success) {
    const { type: _type, title: _title, status: _status, detail, code, ...extra } = problem.data;
    return new ApiError(response.status, code, detail, retryAfter(response), extra);
  }
  // Not a problem this build knows (another code, a proxy's page) still carries a status worth acting on.
  const code =
    response.status === 401
      ? 'unauthenticated'
      : response.status === 403
        ? 'forbidden_company'
        : 'bad_response';
  return new ApiError(response.status, code, response.statusText, retryAfter(response));
}

const WHOLE_SECONDS = /^\d{1,9}$/;

/**
 * The `fetch` every BFF call goes through: same origin with the session cookie, the anti-forgery header, and
 * problem+json errors turned into `ApiError` values. A request counts as use of the session (restarting its idle
 * time) only when the user did something since the last one that did; any other is sent as background (a caller
 * may mark one so anyway: the freshness poll). Every answer's idle time left goes to the session clock. A 401
 * means the session expired — except on the session routes themselves (`quiet`), where "not signed in" is an
 * ordinary answer.
 */
function bffFetch(quiet: boolean): typeof fetch {
  return async (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set(CSRF_HEADER, '1');
    if (!headers.has('Accept')) headers.set('Accept', 'application/json');
    const news = headers.get(BACKGROUND_HEADER) !== '1' && takeNewsOfUser();
    if (!news) headers.set(BACKGROUND_HEADER, '1');
    let response: Response;
    try {
      response = await fetch(input, { ...init, headers, credentials: 'same-origin' });
    } catch (error) {
      if (news) newsNotDelivered();
      if (init?.signal?.aborted) throw error;
      throw new ApiError(0, 'network_error', error instanceof Error ? error.message : 'network error');
    }
    const idleLeft = response.headers.get(SESSION_IDLE_LEFT_HEADER);
    if (idleLeft !== null && WHOLE_SECONDS.test(idleLeft)) noteIdleLeft(Number(idleLeft));
    if (response.ok) return response;
    const error = await toApiError(response);
    if (error.status === 401 && error.code === 'unauthenticated' && !quiet)
      reportSessionExpired(endedIdle(error) ? 'idle' : 'ended');
    throw error;
  };
}

/** A 401 for a session that ran out of idle time (the BFF says so), rather than one ended otherwise. */
export function endedIdle(error: ApiError): boolean {
  return error.status === 401 && error.extra.reason === SESSION_ENDED_IDLE;
}

/** The BFF's routes, typed from the server's `AppType` (a type-only import: no server code ships). */
export const bff = hc<AppType>('/', { fetch: bffFetch(false) });
/** For a route read as a stream of bytes (the downloads), where the typed client adds nothing. */
export const apiFetch = bffFetch(false);
/** For the session routes, where a 401 is an answer rather than an expiry. */
export const quietFetch = bffFetch(true);

/** Where a JSON number can begin, one of 16 digits or more, or one with an exponent. */
const MAYBE_UNSAFE_INTEGER = /(?:^|[:,[])\s*-?(?:\d{16}|\d+(?:\.\d+)?[eE])/;

/**
 * JSON.parse, keeping the digits of an integer beyond 2^53 that the BFF passed on as the upstream sent it: an `id`
 * becomes its digits (a float would round two payments into one row), any other such number its raw JSON text,
 * which the screens show as sent.
 */
export function parseKeepingDigits(text: string): unknown {
  // Only a number written with 16 digits or more, or with an exponent, can be an integer beyond 2^53. Without one
  // the plain parse reads the same, several times faster than one calling the reviver at every value: a CPU
  // profile of the first view with 4x throttling gave this function 88 ms of a load, 25 ms with the plain parse.
  if (!MAYBE_UNSAFE_INTEGER.test(text)) return JSON.parse(text);
  return JSON.parse(text, (key, value: unknown, context?: { source?: string }) => {
    if (typeof value !== 'number' || !Number.isInteger(value) || Number.isSafeInteger(value)) return value;
    if (context?.source === undefined) return value;
    return key === 'id' ? context.source : JSON.rawJSON(context.source);
  });
}

/**
 * Reads a JSON answer and checks it with the shared schema the BFF answers by: a wrong answer (a proxy's page,
 * another version of the BFF) ends as a `bad_response` naming where it broke, never as a broken screen.
 */
export async function readJson<T>(response: Response, schema: AnswerSchema<T>): Promise<T> {
  const body: unknown = await response
    .text()
    .then(parseKeepingDigits)
    .catch(() => undefined);
  const checked = body === undefined ? null : schema.safeParse(body);
  if (checked?.success) return checked.data;
  const problem = checked === null ? 'not JSON' : describeIssue(checked.error.issues[0], body);
  throw new ApiError(response.status, 'bad_response', `unexpected answer from ${response.url}: ${problem}`);
}
