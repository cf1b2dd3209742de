import {
  BACKGROUND_HEADER,
  CSRF_HEADER,
  SESSION_ENDED_IDLE,
  SESSION_IDLE_LEFT_HEADER,
  SIGNED_IN_HINT_COOKIE,
} from '@payments/shared';
import type { Context, MiddlewareHandler } from 'hono';
import { deleteCookie, getCookie } from 'hono/cookie';
import { type Sessions, sessionCookieName, type UserStore } from '../auth/index.ts';
import type { BffEnv } from '../bff-env.ts';
import { problemResponse } from '../problem-response.ts';

/**
 * Anti-forgery as in Duende's BFF: a custom header a cross-site form or image cannot send, and which a
 * cross-site `fetch` can only send after a CORS preflight this server never approves. Checked first, on every
 * `/api` request, sign-in included; without the header, 403 `csrf_required`.
 *
 * @example
 * ```ts
 * const api = new Hono<BffEnv>().use(requireCsrfHeader()).get('/config', (c) => c.json({}));
 * await api.request('/config'); // 403 csrf_required
 * await api.request('/config', { headers: { 'X-CSRF': '1' } }); // 200
 * ```
 */
export function requireCsrfHeader(): MiddlewareHandler<BffEnv> {
  return async (c, next) => {
    if (c.req.header(CSRF_HEADER) !== '1')
      return problemResponse(
        c,
        'csrf_required',
        403,
        `every /api request must carry the header ${CSRF_HEADER}: 1`,
      );
    await next();
  };
}

/**
 * Every `/api` route but sign-in needs a valid session: a cookie naming a session record in the shared state
 * (gone after sign out, "sign out everywhere" or the idle timeout, on every replica), within its max age, of a
 * user still in the users file with the password the session was granted on. Every answer says how long the
 * session stays on without use (SESSION_IDLE_LEFT_HEADER); a 401 for one that ran out of idle time says so
 * (`reason: "idle"`), so the app can tell the user why. A store that cannot be asked fails
 * the request with 503: a session is never taken as valid because nobody could say otherwise. Sets `session`
 * and `user` for the routes after it.
 *
 * @example
 * ```ts
 * const isPublic = (method: string, path: string) => method === 'POST' && path === '/api/session';
 * const api = new Hono<BffEnv>()
 *   .use(requireSession({ sessions, users }, isPublic))
 *   .get('/api/config', (c) => c.json({ user: c.get('user').username }));
 * await api.request('/api/config'); // 401 unauthenticated, "sign in to continue"
 * ```
 */
export function requireSession(
  deps: { sessions: Sessions; users: UserStore },
  isPublic: (method: string, path: string) => boolean,
): MiddlewareHandler<BffEnv> {
  return async (c, next) => {
    if (isPublic(c.req.method, c.req.path)) return next();
    const cookie = getCookie(c, sessionCookieName(c.get('secure')));
    if (cookie === undefined) return signedOut(c, 'sign in to continue');
    // A request marked background (the app asked by itself) does not restart the idle time: an unattended tab
    // must be able to go idle however often it polls.
    const touch = c.req.header(BACKGROUND_HEADER) !== '1';
    const claims = await deps.sessions.open(cookie, { touch });
    if (claims === null && (await deps.sessions.endedIdle(cookie)))
      return signedOut(c, 'you were signed out after a time without activity; sign in again', {
        reason: SESSION_ENDED_IDLE,
      });
    const user = claims === null ? undefined : deps.users.find(claims.sub);
    // A session granted on a password since changed has ended, as has one whose user is gone.
    if (claims === null || user === undefined || !deps.sessions.grantedOn(claims, user))
      return signedOut(c, 'your session has ended; sign in again');
    c.set('session', claims);
    c.set('user', user);
    // Set before the route answers, so that it rides on streamed answers too.
    c.header(SESSION_IDLE_LEFT_HEADER, String(await deps.sessions.idleLeft(claims, { touched: touch })));
    await next();
  };
}

/** 401, and the app's signed-in hint cleared, so that its next visit starts with one session check. */
function signedOut(c: Context<BffEnv>, detail: string, extra?: Record<string, unknown>) {
  if (getCookie(c, SIGNED_IN_HINT_COOKIE) !== undefined)
    deleteCookie(c, SIGNED_IN_HINT_COOKIE, { path: '/', secure: c.get('secure'), sameSite: 'Strict' });
  return problemResponse(c, 'unauthenticated', 401, detail, extra === undefined ? {} : { extra });
}
