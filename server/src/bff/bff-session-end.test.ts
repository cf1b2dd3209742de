import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { BACKGROUND_HEADER, problemSchema } from '@payments/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmbeddedState, type SharedState, SharedStateUnavailable } from '../shared-state/index.ts';
import { hashPassword, watchUsersFile } from './auth/index.ts';
import { createHarness, type Harness, PASSWORD, signInOn, testAuthenticator } from './testing/bff-harness.ts';
import { FAST_TEST_COST } from './testing/test-costs.ts';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});

const withCookie = (cookie: string, headers: Record<string, string> = {}) => ({
  headers: { 'X-CSRF': '1', cookie, ...headers },
});

describe('sessions end when they should', () => {
  it('signing out ends the session on the server: a copy of the cookie taken before is refused', async () => {
    const cookie = await h.signIn('us-tree');
    expect((await h.call('/api/config', { cookie })).status).toBe(200);
    expect((await h.call('/api/session', { cookie, method: 'DELETE' })).status).toBe(204);
    const after = await h.call('/api/payments?limit=1', { cookie });
    expect(after.status).toBe(401);
    expect(problemSchema.parse(await after.json()).code).toBe('unauthenticated');
  });

  it('a replica sharing the store refuses a session signed out on another', async () => {
    const cookie = await h.signIn('us-tree');
    const second = h.make();
    try {
      expect((await second.app.request('/api/config', withCookie(cookie))).status).toBe(200);
      await h.call('/api/session', { cookie, method: 'DELETE' });
      expect((await second.app.request('/api/config', withCookie(cookie))).status).toBe(401);
    } finally {
      await second.close();
    }
  });

  it('"sign out everywhere" ends every session of the user, and no one else\'s', async () => {
    const laptop = await h.signIn('eu-only');
    const phone = await h.signIn('eu-only');
    const colleague = await h.signIn('us-tree');
    expect((await h.call('/api/session?everywhere=true', { cookie: laptop, method: 'DELETE' })).status).toBe(
      204,
    );
    expect((await h.call('/api/config', { cookie: phone })).status).toBe(401);
    expect((await h.call('/api/config', { cookie: laptop })).status).toBe(401);
    expect((await h.call('/api/config', { cookie: colleague })).status).toBe(200);
    expect(
      (await h.call('/api/session?everywhere=maybe', { cookie: colleague, method: 'DELETE' })).status,
    ).toBe(400);
  });

  it('ends a session idle for SESSION_IDLE_TIMEOUT; use keeps it on, a background poll does not', async () => {
    let time = Date.now();
    const now = () => time;
    const bff = h.make({
      settings: { SESSION_IDLE_TIMEOUT: 1800 },
      parts: { now, sharedState: createEmbeddedState({ now }) },
    });
    try {
      const active = await signInOn(bff.app, 'demo', PASSWORD);
      const polling = await signInOn(bff.app, 'demo', PASSWORD);
      for (let minute = 0; minute < 90; minute += 20) {
        time += 20 * 60_000;
        expect((await bff.app.request('/api/config', withCookie(active))).status).toBe(200);
        const poll = await bff.app.request('/api/config', withCookie(polling, { [BACKGROUND_HEADER]: '1' }));
        // The poll still answers while the session is on; after 30 min without use it is refused.
        expect(poll.status).toBe(minute < 20 ? 200 : 401);
      }
      time += 31 * 60_000;
      expect((await bff.app.request('/api/config', withCookie(active))).status).toBe(401);
    } finally {
      await bff.close();
    }
  });

  it('answers 503 shared_state_unavailable when the store cannot be asked, and never treats the session as valid', async () => {
    const state = createEmbeddedState();
    let down = false;
    const flaky = new Proxy(state, {
      get(target, key: keyof SharedState) {
        const value = target[key];
        if (typeof value !== 'function' || key === 'close') return value;
        return (...args: unknown[]) =>
          down
            ? Promise.reject(new SharedStateUnavailable('connection refused'))
            : (value as (...a: unknown[]) => unknown).apply(target, args);
      },
    });
    const bff = h.make({ parts: { sharedState: flaky } });
    try {
      const cookie = await signInOn(bff.app, 'demo', PASSWORD);
      down = true;
      for (const path of ['/api/payments?limit=1', '/api/config', '/api/session']) {
        const answer = await bff.app.request(path, withCookie(cookie));
        expect(answer.status).toBe(503);
        expect(answer.headers.get('retry-after')).toBe('5');
        expect(problemSchema.parse(await answer.json()).code).toBe('shared_state_unavailable');
      }
      const signIn = await bff.app.request('/api/session', {
        method: 'POST',
        headers: { 'X-CSRF': '1', 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'demo', password: PASSWORD }),
      });
      expect(signIn.status).toBe(503);
      expect((await bff.app.request('/readyz')).status).toBe(503);
      expect((await bff.app.request('/healthz')).status).toBe(200);
      down = false;
      expect((await bff.app.request('/api/payments?limit=1', withCookie(cookie))).status).toBe(200);
    } finally {
      await bff.close();
      await state.close();
    }
  });
});

describe('the users file is read again when it changes', () => {
  let folder: string;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'users-watch-'));
  });
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  const fileOf = async (users: { username: string; password: string }[]) =>
    JSON.stringify({
      users: await Promise.all(
        users.map(async ({ username, password }) => ({
          username,
          password_hash: await hashPassword(password, { cost: FAST_TEST_COST }),
          companies: '*',
          include_descendants: true,
        })),
      ),
    });

  async function until(check: () => Promise<boolean>, ms = 3_000) {
    const deadline = Date.now() + ms;
    while (Date.now() < deadline) {
      if (await check()) return true;
      await sleep(50);
    }
    return false;
  }

  it('a removed user and a changed password end their sessions without a restart; a broken file changes nothing', async () => {
    const path = join(folder, 'users.json');
    await writeFile(
      path,
      await fileOf([
        { username: 'ana', password: 'a1' },
        { username: 'bob', password: 'b1' },
      ]),
    );
    const events: string[] = [];
    const users = await watchUsersFile(path, (event) => events.push(event.ok ? 'ok' : event.problem));
    const bff = h.make({
      parts: { users, authenticator: testAuthenticator(users), sharedState: createEmbeddedState() },
    });
    try {
      const ana = await signInOn(bff.app, 'ana', 'a1');
      const bob = await signInOn(bff.app, 'bob', 'b1');
      const status = async (cookie: string) =>
        (await bff.app.request('/api/config', withCookie(cookie))).status;

      // Replaced the way editors and deployment tools do: a new file renamed over the old one.
      await writeFile(`${path}.tmp`, await fileOf([{ username: 'bob', password: 'b2' }]));
      await rename(`${path}.tmp`, path);
      expect(await until(async () => (await status(ana)) === 401 && (await status(bob)) === 401)).toBe(true);
      expect(await signInOn(bff.app, 'bob', 'b2')).toMatch(/^session=/);

      await writeFile(path, '{"users": [');
      expect(await until(async () => events.some((e) => e.includes('not valid JSON')))).toBe(true);
      expect(users.find('bob')).toBeDefined();
    } finally {
      users.close();
      await bff.close();
    }
  });
});
