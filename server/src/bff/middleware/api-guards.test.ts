import { PROBLEM_CONTENT_TYPE, SESSION_IDLE_LEFT_HEADER } from '@payments/shared';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { createEmbeddedState } from '../../shared-state/index.ts';
import { createSessions, createUserStore, sessionCookieName } from '../auth/index.ts';
import type { BffEnv } from '../bff-env.ts';
import { requireCsrfHeader, requireSession } from './api-guards.ts';

describe('requireCsrfHeader', () => {
  const app = new Hono<BffEnv>().use(requireCsrfHeader()).post('/api/session', (c) => c.json({ ok: true }));

  it('refuses a request without X-CSRF: 1 with a 403 csrf_required problem, before the route runs', async () => {
    for (const headers of [{}, { 'X-CSRF': '0' }, { 'X-CSRF': 'yes' }]) {
      const res = await app.request('/api/session', { method: 'POST', headers });
      expect(res.status).toBe(403);
      expect(res.headers.get('content-type')).toBe(PROBLEM_CONTENT_TYPE);
      expect(await res.json()).toMatchObject({ code: 'csrf_required' });
    }
  });

  it('lets a request with the header through', async () => {
    const res = await app.request('/api/session', { method: 'POST', headers: { 'X-CSRF': '1' } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
  });
});

describe('requireSession', () => {
  function setup() {
    let time = Date.UTC(2026, 0, 1, 9);
    const now = () => time;
    const ana = { username: 'ana', passwordHash: 'scrypt$16384$8$1$c2FsdA$aGFzaA', companies: '*' as const };
    let users = createUserStore([{ ...ana, includeDescendants: true }]);
    const sessions = createSessions(createEmbeddedState({ now }), 'a test secret of some length', {
      maxAgeSeconds: 3600,
      idleSeconds: 600,
      now,
    });
    const isPublic = (method: string, path: string) => method === 'POST' && path === '/api/session';
    const app = new Hono<BffEnv>()
      .use(async (c, next) => {
        c.set('secure', false);
        await next();
      })
      .use(
        requireSession(
          { sessions, users: { find: (name) => users.find(name), all: () => users.all() } },
          isPublic,
        ),
      )
      .post('/api/session', (c) => c.json({ public: true }))
      .get('/api/config', (c) => c.json({ user: c.get('user').username }));
    const get = (cookie?: string) =>
      app.request(
        '/api/config',
        cookie === undefined ? {} : { headers: { cookie: `${sessionCookieName(false)}=${cookie}` } },
      );
    return {
      app,
      get,
      sessions,
      begin: () => sessions.begin(ana),
      removeAna: () => {
        users = createUserStore([]);
      },
      advance: (ms: number) => {
        time += ms;
      },
    };
  }
  const problemOf = async (res: Response) => ({ status: res.status, ...((await res.json()) as object) });

  it('lets the public route through without a session, and nothing else', async () => {
    const { app, get } = setup();
    expect((await app.request('/api/session', { method: 'POST' })).status).toBe(200);
    expect(await problemOf(await get())).toMatchObject({
      status: 401,
      code: 'unauthenticated',
      detail: 'sign in to continue',
    });
  });

  it('hands the route the user of a valid session, and says how long it stays on without use', async () => {
    const { get, begin } = setup();
    const { cookie } = await begin();
    const res = await get(cookie);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ user: 'ana' });
    expect(Number(res.headers.get(SESSION_IDLE_LEFT_HEADER))).toBeGreaterThan(0);
  });

  it('refuses an ended session, one idled out (saying so), and one whose user is gone', async () => {
    const ended = setup();
    const first = await ended.begin();
    await ended.sessions.end(first.claims);
    expect(await problemOf(await ended.get(first.cookie))).toMatchObject({
      status: 401,
      code: 'unauthenticated',
    });

    const idle = setup();
    const second = await idle.begin();
    idle.advance(601_000);
    expect(await problemOf(await idle.get(second.cookie))).toMatchObject({ status: 401, reason: 'idle' });

    const gone = setup();
    const third = await gone.begin();
    gone.removeAna();
    expect(await problemOf(await gone.get(third.cookie))).toMatchObject({
      status: 401,
      detail: 'your session has ended; sign in again',
    });
  });
});
