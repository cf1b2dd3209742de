import { type Session, SIGNED_IN_HINT_COOKIE, type SignIn } from '@payments/shared';
import type { Context } from 'hono';
import { setCookie } from 'hono/cookie';
import type { Settings } from '../../config/settings.ts';
import type { BffEnv } from '../bff-env.ts';
import { type Authenticator, checkable } from './authenticate.ts';
import type { CodeGuard } from './code-guard.ts';
import type { DeviceCookies } from './device-cookie.ts';
import type { HashingBudget } from './hashing-budget.ts';
import { createPasswordChecks } from './password-checks.ts';
import { createSecondFactor } from './second-factor.ts';
import { type Sessions, sessionCookieName, sessionCookieOptions } from './sessions.ts';
import { signInAnswers } from './sign-in-answers.ts';
import type { SignInGuard } from './sign-in-guard.ts';
import { type AuthUser, canonicalUsername, type UserStore } from './users.ts';

export const sessionOf = (username: string, exp: number): Session => ({
  username,
  expires_at: new Date(exp * 1000).toISOString(),
});

export interface SignInParts {
  settings: Pick<Settings, 'SESSION_MAX_AGE' | 'AUTH_REQUIRE_TOTP'> & { APP_SECRET: string };
  users: UserStore;
  sessions: Sessions;
  devices: DeviceCookies;
  authenticator: Authenticator;
  signInGuard: SignInGuard;
  codeGuard: CodeGuard;
  hashing: HashingBudget;
  now: () => number;
}

/** One attempt as the steps below see it. */
interface Attempt {
  c: Context<BffEnv>;
  name: string;
  user: AuthUser | undefined;
  address: string;
  /** The nonce of the user's device cookie the attempt carried: it signed in from this browser before. */
  device: string | null;
  answers: ReturnType<typeof signInAnswers>;
}

/**
 * A sign-in attempt, in the order its checks cost: locks, then the second factor (an HMAC, limited per user),
 * then the password (a hash, within the per-user spacing and the hashing budget), then the session.
 */
export function createSignIn(parts: SignInParts) {
  const { signInGuard: guard, settings } = parts;
  const passwords = createPasswordChecks(parts.authenticator, parts.hashing);
  const codes = parts.codeGuard;
  const secondFactor = createSecondFactor(parts.users, settings.APP_SECRET, {
    requireTotp: settings.AUTH_REQUIRE_TOTP,
    useCode: guard.useCode,
    now: parts.now,
  });

  /** A wrong code or an unknown name: counted against the pair, answered as a wrong password would be. */
  async function refuseCode({ name, address, device, answers }: Attempt) {
    await guard.failCode(name, address, device);
    const waited = await passwords.likeACheck(address);
    return waited.ok ? answers.wrong(true) : answers.busy(waited.retryAfterSeconds);
  }

  /** The time step of a right code; otherwise the answer to give. */
  async function judgeCode(attempt: Attempt, code: string) {
    const { name, user, device, answers } = attempt;
    if (user === undefined) return refuseCode(attempt);
    const now = secondFactor.stepNow();
    const trusted = device !== null;
    const verdict = await codes.admit(name, now, code, trusted);
    if (!verdict.judge)
      return verdict.reason === 'slowed'
        ? answers.codesSlowed(verdict.retryAfterSeconds)
        : refuseCode(attempt);
    const step = secondFactor.stepOf(user, code);
    await codes.judged(name, now, code, step !== null, trusted);
    return step ?? refuseCode(attempt);
  }

  /** The password, once the code (if any) is right and new; the user when it is hers. */
  async function checkPassword(attempt: Attempt, password: string, step: number | null) {
    const { name, user, address, device, answers } = attempt;
    const verdict = await guard.admit(name, address, device);
    if (!verdict.allowed)
      return verdict.reason === 'busy'
        ? answers.busy(verdict.retryAfterSeconds)
        : verdict.reason === 'full'
          ? answers.lineFull(verdict.retryAfterSeconds)
          : answers.passwordsSlowed(verdict.retryAfterSeconds, verdict.turnInSeconds);
    // A right code is used (never accepted again) only once the password is about to be checked: an attempt
    // told to wait keeps its code.
    if (user !== undefined && step !== null && !(await secondFactor.use(user, step))) {
      await guard.abandon(name, device);
      return refuseCode(attempt);
    }
    if (!checkable(user)) {
      const waited = await passwords.likeACheck(address);
      if (!waited.ok) {
        await guard.abandon(name, device);
        return answers.busy(waited.retryAfterSeconds);
      }
      await guard.fail(name, address, device);
      return answers.wrong(step !== null);
    }
    const checked = await passwords.check(
      address,
      () => parts.authenticator.verify(user, password),
      verdict.trusted ? name : undefined,
    );
    if (!checked.ok) {
      await guard.abandon(name, device);
      return answers.busy(checked.retryAfterSeconds);
    }
    if (!checked.value) {
      await guard.fail(name, address, device);
      return answers.wrong(step !== null);
    }
    await guard.succeed(name, address, device);
    return user;
  }

  /** A fresh session id on every sign-in (rotation): a cookie planted before sign-in is worthless after. */
  async function beginSession({ c, user, device }: Attempt & { user: AuthUser }) {
    const isSecure = c.get('secure');
    const { cookie, claims } = await parts.sessions.begin(user);
    const cookieOptions = sessionCookieOptions(isSecure, settings.SESSION_MAX_AGE);
    setCookie(c, sessionCookieName(isSecure), cookie, cookieOptions);
    setCookie(c, SIGNED_IN_HINT_COOKIE, '1', { ...cookieOptions, httpOnly: false });
    if (device === null) await parts.devices.issue(c, user.username, isSecure);
    c.set('user', user);
    return c.json(sessionOf(user.username, claims.exp), 200);
  }

  return async (c: Context<BffEnv>, { username, password, totp }: SignIn) => {
    const name = canonicalUsername(username);
    const user = parts.users.find(name);
    const device = user === undefined ? null : await parts.devices.deviceOf(c, name, c.get('secure'));
    const attempt: Attempt = { c, name, user, address: c.get('address'), device, answers: signInAnswers(c) };

    const locked = await guard.locked(name, attempt.address, device);
    if (locked > 0) return attempt.answers.locked(locked);
    // The second factor first: without the code, no password is checked.
    const asksCode = secondFactor.asks(name, user);
    let step: number | null = null;
    if (asksCode) {
      if (totp === undefined) return attempt.answers.codeRequired();
      const judged = await judgeCode(attempt, totp);
      if (typeof judged !== 'number') return judged;
      step = judged;
    }
    const checked = await checkPassword(attempt, password, step);
    return checked instanceof Response ? checked : beginSession({ ...attempt, user: checked });
  };
}
