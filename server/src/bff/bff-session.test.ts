import { problemSchema, sessionSchema } from '@payments/shared';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createEmbeddedState } from '../shared-state/index.ts';
import { createHashingBudget, createUserStore } from './auth/index.ts';
import { createHarness, type Harness, PASSWORD, signInOn, testAuthenticator } from './testing/bff-harness.ts';

let h: Harness;

beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});

const SIGN_IN = 'POST /api/session';

/** Every `/api` route the router knows, read from the router itself so a new route cannot be forgotten. */
function apiRoutes(): Array<{ method: string; path: string }> {
  const unique = new Map<string, { method: string; path: string }>();
  for (const route of h.bff.app.routes) {
    if (route.method === 'ALL' || !route.path.startsWith('/api')) continue;
    unique.set(`${route.method} ${route.path}`, { method: route.method, path: route.path });
  }
  return [...unique.values()];
}

async function codeOf(response: Response): Promise<string> {
  return problemSchema.parse(await response.json()).code;
}

describe('every /api route is guarded', () => {
  it('the router lists the session, config, payments and export routes', () => {
    const names = apiRoutes().map((r) => `${r.method} ${r.path}`);
    expect(names).toEqual(
      expect.arrayContaining([
        SIGN_IN,
        'GET /api/session',
        'DELETE /api/session',
        'GET /api/config',
        'GET /api/payments',
        'GET /api/payments/export.csv',
      ]),
    );
  });

  it('each route but sign-in answers 401 unauthenticated without a session', async () => {
    for (const { method, path } of apiRoutes()) {
      if (`${method} ${path}` === SIGN_IN) continue;
      const response = await h.call(path, { method });
      expect([`${method} ${path}`, response.status]).toEqual([`${method} ${path}`, 401]);
      expect(await codeOf(response)).toBe('unauthenticated');
    }
  });

  it('each route, sign-in included, answers 403 csrf_required without the anti-forgery header, even with a session', async () => {
    const cookie = await h.signIn();
    for (const { method, path } of apiRoutes()) {
      for (const headers of [{ cookie }, { cookie, 'X-CSRF': '0' }, {}]) {
        const response = await h.bff.app.request(path, {
          method,
          headers: { ...headers, 'content-type': 'application/json' },
          body: method === 'POST' ? JSON.stringify({ username: 'demo', password: PASSWORD }) : null,
        });
        expect([`${method} ${path}`, response.status]).toEqual([`${method} ${path}`, 403]);
        expect(await codeOf(response)).toBe('csrf_required');
      }
    }
  });
});

describe('company scope', () => {
  it('a user scoped to one child company gets 403 for its children, siblings, parent and other tenants, with no upstream request', async () => {
    const cookie = await h.signIn('eu-only');
    h.recorded.length = 0;
    for (const company of ['acme-eu-de', 'acme-us', 'acme', 'globex', 'unknown-co']) {
      for (const path of ['/api/payments', '/api/payments/export.csv']) {
        const response = await h.call(path, { cookie, headers: { 'X-Company-Id': company } });
        expect([company, path, response.status]).toEqual([company, path, 403]);
        expect(await codeOf(response)).toBe('forbidden_company');
      }
    }
    expect(h.recorded).toHaveLength(0);
    const own = await h.call('/api/payments?limit=1', { cookie, headers: { 'X-Company-Id': 'acme-eu' } });
    expect(own.status).toBe(200);
    expect(h.recorded[0]?.headers['x-company-id']).toBe('acme-eu');
  });

  it('without X-Company-Id a scoped user gets their own allowed company, not the root', async () => {
    const cookie = await h.signIn('eu-only');
    h.recorded.length = 0;
    expect((await h.call('/api/payments?limit=1', { cookie })).status).toBe(200);
    expect(h.recorded[0]?.headers['x-company-id']).toBe('acme-eu');
  });
});

describe('session cookies', () => {
  it('sign-in sets an HttpOnly, SameSite=Strict, bounded cookie and answers the session', async () => {
    const response = await h.call('/api/session', {
      method: 'POST',
      body: JSON.stringify({ username: 'demo', password: PASSWORD }),
    });
    expect(response.status).toBe(200);
    const session = sessionSchema.parse(await response.json());
    expect(session.username).toBe('demo');
    const cookie = response.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^session=/);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
    expect(cookie).toContain('Path=/');
    expect(cookie).toContain(`Max-Age=${8 * 3600}`);
    expect(cookie).not.toContain('Secure');
  });

  it('behind HTTPS the cookie is __Host- prefixed and Secure', async () => {
    const response = await h.bff.app.request('https://dash.example/api/session', {
      method: 'POST',
      headers: { 'X-CSRF': '1', 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'demo', password: PASSWORD }),
    });
    const cookie = response.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^__Host-session=/);
    expect(cookie).toContain('Secure');
  });

  it('X-Forwarded-Proto makes the cookie Secure only when it comes from a proxy TRUST_PROXY names', async () => {
    const viaProxy = (bff: Harness['bff'], peer: string) =>
      bff.app.request(
        '/api/session',
        {
          method: 'POST',
          headers: { 'X-CSRF': '1', 'content-type': 'application/json', 'X-Forwarded-Proto': 'https' },
          body: JSON.stringify({ username: 'demo', password: PASSWORD }),
        },
        { incoming: { socket: { remoteAddress: peer } } },
      );
    expect((await viaProxy(h.bff, '10.0.0.5')).headers.get('set-cookie')).toMatch(/^session=/);
    const trusting = h.make({ settings: { TRUST_PROXY: ['10.0.0.5/32', '2001:db8::/32'] } });
    try {
      expect((await viaProxy(trusting, '10.0.0.5')).headers.get('set-cookie')).toMatch(
        /^__Host-session=.*Secure/,
      );
      expect((await viaProxy(trusting, '::ffff:10.0.0.5')).headers.get('set-cookie')).toMatch(
        /^__Host-session=/,
      );
      expect((await viaProxy(trusting, '2001:db8:5::1')).headers.get('set-cookie')).toMatch(
        /^__Host-session=/,
      );
      // Any other client saying it came over HTTPS is not believed.
      expect((await viaProxy(trusting, '10.0.0.6')).headers.get('set-cookie')).toMatch(/^session=/);
    } finally {
      await trusting.close();
    }
  });

  it('every sign-in rotates the cookie', async () => {
    expect(await h.signIn()).not.toBe(await h.signIn());
  });

  it('GET /api/session reads the session and DELETE clears the cookie', async () => {
    const cookie = await h.signIn('us-tree');
    expect(sessionSchema.parse(await (await h.call('/api/session', { cookie })).json()).username).toBe(
      'us-tree',
    );
    const out = await h.call('/api/session', { cookie, method: 'DELETE' });
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(/^session=; Max-Age=0/);
  });

  it('a tampered cookie is refused', async () => {
    const cookie = await h.signIn();
    const [name, value = ''] = cookie.split('=');
    const at = Math.floor(value.length / 2);
    const tampered = `${name}=${value.slice(0, at)}${value[at] === 'A' ? 'B' : 'A'}${value.slice(at + 1)}`;
    expect((await h.call('/api/config', { cookie: tampered })).status).toBe(401);
    expect((await h.call('/api/config', { cookie: `${cookie.slice(0, -3)}` })).status).toBe(401);
  });

  it('an expired cookie is refused', async () => {
    const cookie = await h.signIn();
    const later = h.make({ parts: { now: () => Date.now() + 8 * 3600 * 1000 + 1_000 } });
    try {
      const response = await later.app.request('/api/config', { headers: { 'X-CSRF': '1', cookie } });
      expect(response.status).toBe(401);
    } finally {
      await later.close();
    }
  });

  it('a cookie sealed with another APP_SECRET is refused', async () => {
    const foreign = h.make({ settings: { APP_SECRET: 'another-secret-another-secret-another-secret' } });
    try {
      const cookie = await signInOn(foreign.app);
      expect((await h.call('/api/config', { cookie })).status).toBe(401);
    } finally {
      await foreign.close();
    }
  });

  it('a cookie made by one BFF instance works on a second sharing APP_SECRET', async () => {
    const cookie = await h.signIn('us-tree');
    const second = h.make();
    try {
      const response = await second.app.request('/api/session', { headers: { 'X-CSRF': '1', cookie } });
      expect(sessionSchema.parse(await response.json()).username).toBe('us-tree');
    } finally {
      await second.close();
    }
  });

  it('a user removed from the users store loses access at once, live cookie or not', async () => {
    const cookie = await h.signIn('eu-only');
    const users = createUserStore(h.parts.users.all().filter((u) => u.username !== 'eu-only'));
    const without = h.make({ parts: { users, authenticator: testAuthenticator(users) } });
    try {
      const response = await without.app.request('/api/config', { headers: { 'X-CSRF': '1', cookie } });
      expect(response.status).toBe(401);
    } finally {
      await without.close();
    }
  });
  it("changing a user's password ends the sessions granted on the old one", async () => {
    const cookie = await h.signIn('eu-only');
    const users = createUserStore(
      h.parts.users
        .all()
        .map((u) => (u.username === 'eu-only' ? { ...u, passwordHash: `${u.passwordHash}x` } : u)),
    );
    const changed = h.make({ parts: { users, authenticator: testAuthenticator(users) } });
    const unchanged = h.make();
    try {
      const headers = { 'X-CSRF': '1', cookie };
      expect((await changed.app.request('/api/config', { headers })).status).toBe(401);
      expect((await unchanged.app.request('/api/config', { headers })).status).toBe(200);
    } finally {
      await changed.close();
      await unchanged.close();
    }
  });
});

describe('sign-in answers', () => {
  // Each BFF here has a store of its own (sharedState: undefined), so one test's failures do not count in the next.
  const signIn = (app: Harness['bff']['app'], username: string, password: string, address = '10.0.0.1') =>
    app.request(
      '/api/session',
      {
        method: 'POST',
        headers: { 'X-CSRF': '1', 'content-type': 'application/json' },
        body: JSON.stringify({ username, password }),
      },
      { incoming: { socket: { remoteAddress: address } } },
    );

  it('unknown user and wrong password get the identical answer', async () => {
    const unknown = await signIn(h.bff.app, 'nobody-here', 'wrong-password', '10.9.0.1');
    const wrong = await signIn(h.bff.app, 'demo', 'wrong-password', '10.9.0.2');
    expect(unknown.status).toBe(401);
    expect(wrong.status).toBe(unknown.status);
    expect(await wrong.text()).toBe(await unknown.text());
    const headerNames = (r: Response) => [...r.headers.keys()].filter((n) => n !== 'x-request-id').sort();
    expect(headerNames(wrong)).toEqual(headerNames(unknown));
    expect(unknown.headers.get('set-cookie')).toBeNull();
  });

  it('failures of one user from one address lock that pair: refused there, while the right password elsewhere signs in', async () => {
    const bff = h.make({ parts: { sharedState: createEmbeddedState() } });
    try {
      for (let i = 0; i < 5; i += 1)
        expect((await signIn(bff.app, 'us-tree', 'nope', '10.1.0.1')).status).toBe(401);
      const locked = await signIn(bff.app, 'us-tree', PASSWORD, '10.1.0.1');
      expect(locked.status).toBe(429);
      expect(await codeOf(locked)).toBe('rate_limited');
      expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await signIn(bff.app, 'us-tree', PASSWORD, '10.1.0.2')).status).toBe(200);
    } finally {
      await bff.close();
    }
  });

  it('guesses for one user spread over many addresses are spaced out, and the right password is told to wait, never refused as wrong', async () => {
    let time = Date.now();
    const now = () => time;
    const bff = h.make({ parts: { sharedState: createEmbeddedState({ now }), now } });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 20; i += 1)
        statuses.push((await signIn(bff.app, 'us-tree', 'nope', `10.4.0.${i}`)).status);
      // 5 free failures, then one check per spacing: the 6th goes through, the rest wait.
      expect(statuses.filter((status) => status === 401)).toHaveLength(6);
      expect(statuses.filter((status) => status === 429)).toHaveLength(14);
      const slowed = await signIn(bff.app, 'us-tree', PASSWORD, '10.4.1.1');
      expect(slowed.status).toBe(429);
      const body = await slowed.json();
      // 14 guessers hold more places than the 11 that come within 15 min: she is told to ask again, not to wait hours.
      expect(body).toMatchObject({
        code: 'rate_limited',
        detail: expect.stringMatching(
          /sign-ins are slowed and taken in turn.*every place within the next 15 min/,
        ),
      });
      expect(Number(slowed.headers.get('retry-after'))).toBeLessThanOrEqual(30);
      // Asking again when told, the right password is checked once the guessers' places lapsed (they stopped
      // asking) and the next turn came: within two spacings (80 s each), never refused as wrong.
      const started = time;
      let answer = slowed;
      while (answer.status === 429 && time - started < 200_000) {
        time += Number(answer.headers.get('retry-after')) * 1000;
        answer = await signIn(bff.app, 'us-tree', PASSWORD, '10.4.1.1');
      }
      expect(answer.status).toBe(200);
      expect(time - started).toBeLessThanOrEqual(160_000);
    } finally {
      await bff.close();
    }
  });

  it('guesses sent at once are counted before they fail: no more are checked than the free failures allow', async () => {
    const checked: string[] = [];
    const authenticator = testAuthenticator(h.parts.users);
    const bff = h.make({
      parts: {
        sharedState: createEmbeddedState(),
        authenticator: {
          verify(user, password) {
            checked.push(user.username);
            return authenticator.verify(user, password);
          },
          verifyNobody: (password) => authenticator.verifyNobody(password),
        },
      },
    });
    try {
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => signIn(bff.app, 'us-tree', 'nope', `10.3.0.${i}`)),
      );
      expect(answers.filter((r) => r.status === 401)).toHaveLength(6);
      expect(checked).toHaveLength(6);
    } finally {
      await bff.close();
    }
  });

  it('failures from one address across many usernames lock the address at 50, not at 5 (an office behind one NAT)', async () => {
    const bff = h.make({ parts: { sharedState: createEmbeddedState() } });
    try {
      for (let i = 0; i < 49; i += 1) await signIn(bff.app, `guess-${i}`, 'nope', '10.2.0.1');
      expect((await signIn(bff.app, 'demo', PASSWORD, '10.2.0.1')).status).toBe(200);
      await signIn(bff.app, 'guess-49', 'nope', '10.2.0.1');
      expect((await signIn(bff.app, 'demo', PASSWORD, '10.2.0.1')).status).toBe(429);
      expect((await signIn(bff.app, 'demo', PASSWORD, '10.2.0.2')).status).toBe(200);
    } finally {
      await bff.close();
    }
  });

  it('a sign-in beyond the password-check budget is answered 429 busy at once, without a check', async () => {
    const bff = h.make({
      parts: {
        sharedState: createEmbeddedState(),
        hashing: createHashingBudget({ concurrent: 1, queued: 1 }),
      },
    });
    try {
      const answers = await Promise.all(
        Array.from({ length: 6 }, (_, i) => signIn(bff.app, 'demo', PASSWORD, `10.5.0.${i}`)),
      );
      const busy = answers.filter((r) => r.status === 429);
      expect(answers.filter((r) => r.status === 200).length).toBeGreaterThanOrEqual(2);
      expect(busy.length).toBeGreaterThan(0);
      expect(await busy[0]?.json()).toMatchObject({ code: 'busy' });
      expect(busy[0]?.headers.get('retry-after')).toBe('1');
    } finally {
      await bff.close();
    }
  });

  it('an unknown user costs no password check, and is answered as a wrong password is', async () => {
    // Counted rather than timed: that the answer takes what a check takes is measured in test/abuse, over
    // whole sign-ins of a BFF process at the production cost.
    const calls = { verify: 0, nobody: 0 };
    const authenticator = testAuthenticator(h.parts.users);
    const bff = h.make({
      parts: {
        sharedState: createEmbeddedState(),
        authenticator: {
          verify(user, password) {
            calls.verify += 1;
            return authenticator.verify(user, password);
          },
          verifyNobody(password) {
            calls.nobody += 1;
            return authenticator.verifyNobody(password);
          },
        },
      },
    });
    try {
      // Eight checks of nobody at start time what a check takes; none after.
      await vi.waitFor(() => expect(calls.nobody).toBe(8));
      const wrong = await (await signIn(bff.app, 'us-tree', 'nope', '10.9.1.99')).text();
      expect(calls).toEqual({ verify: 1, nobody: 8 });
      for (let i = 0; i < 20; i += 1) {
        const unknown = await signIn(bff.app, `nobody-${i}`, 'nope', `10.9.2.${i}`);
        expect(unknown.status).toBe(401);
        expect(await unknown.text()).toBe(wrong);
      }
      expect(calls).toEqual({ verify: 1, nobody: 8 });
    } finally {
      await bff.close();
    }
  });

  it('a successful sign-in does not reset the failures counted against its address', async () => {
    const bff = h.make({ parts: { sharedState: createEmbeddedState() } });
    try {
      for (let i = 0; i < 49; i += 1) await signIn(bff.app, `guess-${i}`, 'nope', '10.3.0.1');
      expect((await signIn(bff.app, 'demo', PASSWORD, '10.3.0.1')).status).toBe(200);
      expect((await signIn(bff.app, 'guess-49', 'nope', '10.3.0.1')).status).toBe(401);
      expect((await signIn(bff.app, 'guess-50', 'nope', '10.3.0.1')).status).toBe(429);
    } finally {
      await bff.close();
    }
  });

  it.each([
    ['malformed JSON', '{"username":'],
    ['missing password', '{"username":"demo"}'],
    ['extra fields', JSON.stringify({ username: 'demo', password: PASSWORD, admin: true })],
    ['a too large body', JSON.stringify({ username: 'demo', password: 'x'.repeat(10_000) })],
  ])('a sign-in with %s is a 4xx problem, never a session', async (_name, body) => {
    const response = await h.call('/api/session', { method: 'POST', body });
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    expect(await codeOf(response)).toBe('invalid_parameter');
    expect(response.headers.get('set-cookie')).toBeNull();
  });
});
