import type { Context } from 'hono';
import type { BffEnv } from '../bff-env.ts';
import { problemResponse } from '../problem-response.ts';

const about = (seconds: number) => (seconds < 90 ? `${seconds} s` : `${Math.round(seconds / 60)} min`);

/** The sign-in's refusals, each a problem with its code and, when waiting helps, a Retry-After. */
export const signInAnswers = (c: Context<BffEnv>) => ({
  /** One answer for an unknown user and a wrong password (or code) alike. */
  wrong: (asksCode: boolean) =>
    problemResponse(
      c,
      'invalid_credentials',
      401,
      asksCode ? 'the username, the password or the code is wrong' : 'the username or the password is wrong',
    ),
  codeRequired: () =>
    problemResponse(c, 'totp_required', 401, 'enter the 6-digit code from your authenticator app'),
  busy: (retryAfterSeconds: number) =>
    problemResponse(c, 'busy', 429, 'too many sign-ins at once; try again in a moment', {
      retryAfterSeconds,
    }),
  locked: (retryAfterSeconds: number) =>
    problemResponse(c, 'rate_limited', 429, 'too many failed sign-ins from here; wait before trying again', {
      retryAfterSeconds,
    }),
  codesSlowed: (retryAfterSeconds: number) =>
    problemResponse(
      c,
      'rate_limited',
      429,
      `many wrong codes were tried for this username lately, so its codes are taken one at a time: try again in about ${about(retryAfterSeconds)}. A browser you signed in with before is not slowed.`,
      { retryAfterSeconds },
    ),
  lineFull: (retryAfterSeconds: number) =>
    problemResponse(
      c,
      'rate_limited',
      429,
      `many wrong passwords were tried for this username lately, so its sign-ins are slowed and taken in turn, and every place within the next 15 min is taken: ask again in ${retryAfterSeconds} s. Sign-ins from a browser you signed in with before, or with a code from an authenticator app, are not slowed.`,
      { retryAfterSeconds },
    ),
  passwordsSlowed: (retryAfterSeconds: number, turnInSeconds: number) =>
    problemResponse(
      c,
      'rate_limited',
      429,
      `many wrong passwords were tried for this username lately, so its sign-ins are slowed and taken in turn: yours comes in about ${about(turnInSeconds)}. Ask again within ${retryAfterSeconds} s to keep your place (the sign-in page does it by itself). Sign-ins with a code from an authenticator app are never slowed.`,
      { retryAfterSeconds, extra: { turn_in_seconds: turnInSeconds } },
    ),
});
