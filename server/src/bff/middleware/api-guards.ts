import { CSRF_HEADER } from '@payments/shared';
import type { MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import { sessionCookieName } from '../auth/index.ts';
import type { BffDeps, BffEnv } from '../bff-context.ts';
import { problemResponse } from '../problem-response.ts';

/**
 * Anti-forgery as in Duende's BFF: a custom header a cross-site form or image cannot send, and which a
 * cross-site `fetch` can only send after a CORS preflight this server never approves. Checked first, on every
 * `/api` request, sign-in included.
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
 * Every `/api` route but sign-in needs a valid session. The user is looked up in the store on every request,
 * so removing someone from the users file, or changing their password (and restarting), ends their access even
 * with a live cookie.
 */
export function requireSession(
  deps: BffDeps,
  isPublic: (method: string, path: string) => boolean,
): MiddlewareHandler<BffEnv> {
  return async (c, next) => {
    if (isPublic(c.req.method, c.req.path)) return next();
    const cookie = getCookie(c, sessionCookieName(c.get('secure')));
    const claims = cookie === undefined ? null : deps.sealer.open(cookie);
    const user = claims === null ? undefined : deps.users.find(claims.sub);
    // A session granted on a password since changed has ended, as has one whose user is gone.
    if (claims === null || user === undefined || !deps.sealer.grantedOn(claims, user))
      return problemResponse(c, 'unauthenticated', 401, 'sign in to continue');
    c.set('session', claims);
    c.set('user', user);
    await next();
  };
}
