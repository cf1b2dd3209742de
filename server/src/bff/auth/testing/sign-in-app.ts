import { randomBytes } from 'node:crypto';
import { problemSchema } from '@payments/shared';
import { Hono } from 'hono';
import { createEmbeddedState } from '../../../shared-state/index.ts';
import type { BffEnv } from '../../bff-env.ts';
import { requestOrigin } from '../../middleware/request-origin.ts';
import { FAST_TEST_COST } from '../../testing/test-costs.ts';
import { type Authenticator, createAuthenticator } from '../authenticate.ts';
import { createCodeGuard } from '../code-guard.ts';
import { createDeviceCookies } from '../device-cookie.ts';
import { createHashingBudget } from '../hashing-budget.ts';
import { hashPassword, unmatchableHash } from '../password.ts';
import { sessionRoutes } from '../session-routes.ts';
import { createSessions } from '../sessions.ts';
import { createSignInGuard } from '../sign-in-guard.ts';
import { createUserStore } from '../users.ts';

const PASSWORD = 'correct horse battery';

/**
 * The sign-in routes alone in a tiny app, on a clock the test moves (the store's and the codes' time), with
 * every hash counted: `hashes` for real users' checks, `nobody` for checks of no user.
 */
export async function signInApp(users: { username: string; totpSecret?: string }[]) {
  let time = Date.UTC(2026, 0, 1, 9);
  const now = () => time;
  const passwordHash = await hashPassword(PASSWORD, { cost: FAST_TEST_COST });
  const store = createUserStore(
    users.map((user) => ({ ...user, passwordHash, companies: '*' as const, includeDescendants: true })),
  );
  const state = createEmbeddedState({ now });
  const hashes: string[] = [];
  let nobody = 0;
  const inner = createAuthenticator(store, { dummyHash: unmatchableHash(FAST_TEST_COST) });
  const authenticator: Authenticator = {
    verify(user, password) {
      hashes.push(user.username);
      return inner.verify(user, password);
    },
    verifyNobody(password) {
      nobody += 1;
      return inner.verifyNobody(password);
    },
  };
  const appSecret = randomBytes(32).toString('base64url');
  const app = new Hono<BffEnv>().use(requestOrigin({ TRUST_PROXY: [] })).route(
    '/api/session',
    sessionRoutes({
      settings: { SESSION_MAX_AGE: 3600, AUTH_REQUIRE_TOTP: false, APP_SECRET: appSecret },
      users: store,
      sessions: createSessions(state, appSecret, { maxAgeSeconds: 3600, idleSeconds: 1800, now }),
      devices: createDeviceCookies(appSecret),
      authenticator,
      signInGuard: createSignInGuard(state, (name) => store.find(name) !== undefined),
      codeGuard: createCodeGuard(state),
      hashing: createHashingBudget({ concurrent: 1 }),
      now,
    }),
  );

  /** One sign-in from `address`; `cookie` is a device cookie the browser holds. */
  async function signIn(
    username: string,
    options: { password?: string; totp?: string; address?: string; cookie?: string } = {},
  ) {
    const response = await app.request(
      '/api/session',
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(options.cookie === undefined ? {} : { cookie: options.cookie }),
        },
        body: JSON.stringify({
          username,
          password: options.password ?? PASSWORD,
          ...(options.totp === undefined ? {} : { totp: options.totp }),
        }),
      },
      { incoming: { socket: { remoteAddress: options.address ?? '10.0.0.1' } } },
    );
    const text = await response.text();
    const body = JSON.parse(text) as unknown;
    return {
      status: response.status,
      code: problemSchema.safeParse(body).data?.code,
      body,
      text,
      contentType: response.headers.get('content-type'),
      retryAfter: response.headers.has('retry-after')
        ? Number(response.headers.get('retry-after'))
        : undefined,
      deviceCookie: /(?:^|, )(device=[^;]+)/.exec(response.headers.get('set-cookie') ?? '')?.[1],
    };
  }

  return {
    signIn,
    hashes,
    nobodyChecks: () => nobody,
    now,
    advance: (ms: number) => {
      time += ms;
    },
  };
}
