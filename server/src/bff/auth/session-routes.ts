import { sValidator } from '@hono/standard-validator';
import { type Session, SIGNED_IN_HINT_COOKIE, signInSchema, signOutSchema } from '@payments/shared';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { deleteCookie, setCookie } from 'hono/cookie';
import type { Settings } from '../../config/settings.ts';
import type { BffEnv } from '../bff-env.ts';
import { problemResponse } from '../problem-response.ts';
import { type Authenticator, checkable, createCheckTimes } from './authenticate.ts';
import type { DeviceCookies } from './device-cookie.ts';
import type { HashingBudget } from './hashing-budget.ts';
import { createSecondFactor } from './second-factor.ts';
import { type Sessions, sessionCookieName, sessionCookieOptions } from './sessions.ts';
import type { SignInGuard } from './sign-in-guard.ts';
import { canonicalUsername, type UserStore } from './users.ts';

const sessionOf = (username: string, exp: number): Session => ({
  username,
  expires_at: new Date(exp * 1000).toISOString(),
});

/** As many as the check times need before they answer (createCheckTimes' minimum). */
const CHECKS_TIMED_AT_START = 8;

const about = (seconds: number) => (seconds < 90 ? `${seconds} s` : `${Math.round(seconds / 60)} min`);

/** `/api/session`: sign in (the one `/api` route without a session), read, sign out (here or everywhere). */
export function sessionRoutes(deps: {
  settings: Pick<Settings, 'SESSION_MAX_AGE' | 'AUTH_REQUIRE_TOTP'> & { APP_SECRET: string };
  users: UserStore;
  sessions: Sessions;
  devices: DeviceCookies;
  authenticator: Authenticator;
  signInGuard: SignInGuard;
  hashing: HashingBudget;
  now: () => number;
}) {
  const { authenticator, hashing, signInGuard: guard } = deps;
  const checkTimes = createCheckTimes();
  const secondFactor = createSecondFactor(deps.users, deps.settings.APP_SECRET, {
    requireTotp: deps.settings.AUTH_REQUIRE_TOTP,
    useCode: guard.useCode,
    now: deps.now,
  });

  /** Times a real check, for the attempts that need none: the hash alone (an imitation adds the queue's wait). */
  const timed = async (verify: () => Promise<boolean>, record = checkTimes.record) => {
    const started = performance.now();
    const matches = await verify();
    record(performance.now() - started);
    return matches;
  };
  // Checks of nobody at start: the first unknown names of a flood then need no hash of their own.
  void (async () => {
    for (let i = 0; i < CHECKS_TIMED_AT_START; i++)
      await timed(() => authenticator.verifyNobody('start'), checkTimes.recordAtStart);
  })().catch(() => {});

  const check = (address: string, verify: () => Promise<boolean>, trustedUser?: string) =>
    hashing.run(address, () => timed(verify), trustedUser === undefined ? {} : { trustedUser });

  /** Waits what a real check would take now, without one (a real one while none was timed yet). */
  function likeACheck(address: string, password: string) {
    const ms = checkTimes.draw();
    return ms === null
      ? check(address, () => authenticator.verifyNobody(password))
      : hashing.imitate(address, ms);
  }

  return new Hono<BffEnv>()
    .post(
      '/',
      bodyLimit({
        maxSize: 4 * 1024,
        onError: (c) => problemResponse(c, 'invalid_parameter', 413, 'the sign-in body is too large'),
      }),
      sValidator('json', signInSchema, (result, c) => {
        if (!result.success)
          return problemResponse(
            c,
            'invalid_parameter',
            400,
            'send JSON {"username": "…", "password": "…"}, and "totp": "123456" when a code is asked for',
          );
      }),
      async (c) => {
        const { username, password, totp } = c.req.valid('json');
        const name = canonicalUsername(username);
        const address = c.get('address');
        const isSecure = c.get('secure');
        const user = deps.users.find(name);
        const device = user === undefined ? null : await deps.devices.deviceOf(c, name, isSecure);
        const busy = (retryAfterSeconds: number) =>
          problemResponse(c, 'busy', 429, 'too many sign-ins at once; try again in a moment', {
            retryAfterSeconds,
          });

        const locked = await guard.locked(name, address, device);
        if (locked > 0)
          return problemResponse(
            c,
            'rate_limited',
            429,
            'too many failed sign-ins from here; wait before trying again',
            {
              retryAfterSeconds: locked,
            },
          );

        // The second factor first: without the code, no password is checked.
        const asksCode = secondFactor.asks(name, user);
        // One answer for unknown user and wrong password (or code) alike.
        const wrong = () =>
          problemResponse(
            c,
            'invalid_credentials',
            401,
            asksCode
              ? 'the username, the password or the code is wrong'
              : 'the username or the password is wrong',
          );
        // A right code is used (never accepted again) only once the password is about to be checked: an
        // attempt told to wait keeps its code.
        let step: number | null = null;
        if (asksCode) {
          if (totp === undefined)
            return problemResponse(
              c,
              'totp_required',
              401,
              'enter the 6-digit code from your authenticator app',
            );
          step = secondFactor.stepOf(user, totp);
          if (step === null) {
            await guard.failCode(name, address, device);
            const waited = await likeACheck(address, password);
            return waited.ok ? wrong() : busy(waited.retryAfterSeconds);
          }
        }

        const verdict = await guard.admit(name, address, device);
        if (!verdict.allowed)
          return verdict.reason === 'busy'
            ? busy(verdict.retryAfterSeconds)
            : problemResponse(
                c,
                'rate_limited',
                429,
                `many wrong passwords were tried for this username lately, so its sign-ins are slowed and taken in turn: yours comes in about ${about(verdict.turnInSeconds)}. Ask again within ${verdict.retryAfterSeconds} s to keep your place (the sign-in page does it by itself). Sign-ins with a code from an authenticator app are never slowed.`,
                {
                  retryAfterSeconds: verdict.retryAfterSeconds,
                  extra: { turn_in_seconds: verdict.turnInSeconds },
                },
              );
        if (user !== undefined && step !== null && !(await secondFactor.use(user, step))) {
          await guard.abandon(name, device);
          await guard.failCode(name, address, device);
          const waited = await likeACheck(address, password);
          return waited.ok ? wrong() : busy(waited.retryAfterSeconds);
        }
        if (!checkable(user)) {
          const waited = await likeACheck(address, password);
          if (!waited.ok) {
            await guard.abandon(name, device);
            return busy(waited.retryAfterSeconds);
          }
          await guard.fail(name, address, device);
          return wrong();
        }
        const checked = await check(
          address,
          () => authenticator.verify(user, password),
          verdict.trusted ? name : undefined,
        );
        if (!checked.ok) {
          await guard.abandon(name, device);
          return busy(checked.retryAfterSeconds);
        }
        if (!checked.value) {
          await guard.fail(name, address, device);
          return wrong();
        }
        await guard.succeed(name, address, device);
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
