import { sValidator } from '@hono/standard-validator';
import { SIGNED_IN_HINT_COOKIE, signInSchema, signOutSchema } from '@payments/shared';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { deleteCookie } from 'hono/cookie';
import type { BffEnv } from '../bff-env.ts';
import { problemResponse } from '../problem-response.ts';
import { sessionCookieName } from './sessions.ts';
import { createSignIn, type SignInParts, sessionOf } from './sign-in.ts';

/** `/api/session`: sign in (the one `/api` route without a session), read, sign out (here or everywhere). */
export function sessionRoutes(parts: SignInParts) {
  const signIn = createSignIn(parts);
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
      (c) => signIn(c, c.req.valid('json')),
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
        if (c.req.valid('query').everywhere === 'true') await parts.sessions.endAll(claims.sub);
        else await parts.sessions.end(claims);
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
