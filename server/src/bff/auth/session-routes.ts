import { sValidator } from '@hono/standard-validator';
import { type Session, SIGNED_IN_HINT_COOKIE, signInSchema, signOutSchema } from '@payments/shared';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { deleteCookie, setCookie } from 'hono/cookie';
import type { Settings } from '../../config/settings.ts';
import type { BffEnv } from '../bff-env.ts';
import { problemResponse } from '../problem-response.ts';
import type { Authenticator } from './authenticate.ts';
import type { DeviceCookies } from './device-cookie.ts';
import type { HashingBudget } from './hashing-budget.ts';
import { type Sessions, sessionCookieName, sessionCookieOptions } from './sessions.ts';
import type { SignInGuard } from './sign-in-guard.ts';
import { canonicalUsername } from './users.ts';

const sessionOf = (username: string, exp: number): Session => ({
  username,
  expires_at: new Date(exp * 1000).toISOString(),
});

/** `/api/session`: sign in (the one `/api` route without a session), read, sign out (here or everywhere). */
export function sessionRoutes(deps: {
  settings: Pick<Settings, 'SESSION_MAX_AGE'>;
  sessions: Sessions;
  devices: DeviceCookies;
  authenticator: Authenticator;
  signInGuard: SignInGuard;
  hashing: HashingBudget;
}) {
  return new Hono<BffEnv>()
    .post(
      '/',
      bodyLimit({
        maxSize: 4 * 1024,
        onError: (c) => problemResponse(c, 'invalid_parameter', 413, 'the sign-in body is too large'),
      }),
      sValidator('json', signInSchema, (result, c) => {
        if (!result.success)
          return problemResponse(c, 'invalid_parameter', 400, 'send JSON {"username": "…", "password": "…"}');
      }),
      async (c) => {
        const { username, password } = c.req.valid('json');
        const name = canonicalUsername(username);
        const address = c.get('address');
        const isSecure = c.get('secure');
        const device = await deps.devices.deviceOf(c, name, isSecure);
        const verdict = await deps.signInGuard.check(name, address, device);
        if (!verdict.allowed)
          return problemResponse(
            c,
            'rate_limited',
            429,
            verdict.reason === 'slowed'
              ? 'many failed sign-ins for this user lately, so attempts are spaced out; try again shortly'
              : 'too many failed sign-ins from here; wait before trying again',
            { retryAfterSeconds: verdict.retryAfterSeconds },
          );
        const checked = await deps.hashing.run(
          address,
          () => deps.authenticator.authenticate(username, password),
          { priority: verdict.trusted },
        );
        if (!checked.ok) {
          await deps.signInGuard.abandon(name);
          return problemResponse(c, 'busy', 429, 'too many sign-ins at once; try again in a moment', {
            retryAfterSeconds: checked.retryAfterSeconds,
          });
        }
        const user = checked.value;
        if (user === null) {
          await deps.signInGuard.fail(name, address, device);
          // One answer for unknown user and wrong password alike.
          return problemResponse(c, 'invalid_credentials', 401, 'the username or the password is wrong');
        }
        await deps.signInGuard.succeed(name, address);
        // A fresh session id on every sign-in (rotation): a cookie planted before sign-in is worthless after.
        const { cookie, claims } = await deps.sessions.begin(user);
        setCookie(
          c,
          sessionCookieName(isSecure),
          cookie,
          sessionCookieOptions(isSecure, deps.settings.SESSION_MAX_AGE),
        );
        setCookie(c, SIGNED_IN_HINT_COOKIE, '1', {
          ...sessionCookieOptions(isSecure, deps.settings.SESSION_MAX_AGE),
          httpOnly: false,
        });
        if (device === null) await deps.devices.issue(c, user.username, isSecure);
        c.set('user', user);
        return c.json(sessionOf(user.username, claims.exp), 200);
      },
    )
    .get('/', (c) => c.json(sessionOf(c.get('user').username, c.get('session').exp), 200))
    .delete(
      '/',
      sValidator('query', signOutSchema, (result, c) => {
        if (!result.success)
          return problemResponse(c, 'invalid_parameter', 400, 'everywhere is true or false');
      }),
      async (c) => {
        const claims = c.get('session');
        if (c.req.valid('query').everywhere === 'true') await deps.sessions.endAll(claims.sub);
        else await deps.sessions.end(claims);
        const isSecure = c.get('secure');
        deleteCookie(c, sessionCookieName(isSecure), {
          path: '/',
          secure: isSecure,
          httpOnly: true,
          sameSite: 'Strict',
        });
        deleteCookie(c, SIGNED_IN_HINT_COOKIE, { path: '/', secure: isSecure, sameSite: 'Strict' });
        return c.body(null, 204);
      },
    );
}
