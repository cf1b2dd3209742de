import {
  BACKGROUND_HEADER,
  problemSchema,
  SESSION_ENDED_IDLE,
  SESSION_IDLE_LEFT_HEADER,
} from '@payments/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmbeddedState } from '../shared-state/index.ts';
import { createHarness, type Harness, PASSWORD, signInOn, type TestBff } from './testing/bff-harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});

const IDLE = 600;
const withCookie = (cookie: string, headers: Record<string, string> = {}) => ({
  headers: { 'X-CSRF': '1', cookie, ...headers },
});
const background = { [BACKGROUND_HEADER]: '1' };

/** A BFF on a clock the test moves, with SESSION_IDLE_TIMEOUT = IDLE. */
function onClock(): { bff: TestBff; pass(seconds: number): void } {
  let time = Date.now();
  const now = () => time;
  const bff = h.make({
    settings: { SESSION_IDLE_TIMEOUT: IDLE },
    parts: { now, sharedState: createEmbeddedState({ now }) },
  });
  return {
    bff,
    pass(seconds) {
      time += seconds * 1000;
    },
  };
}

const idleLeft = (response: Response) => response.headers.get(SESSION_IDLE_LEFT_HEADER);

async function problemOf(response: Response) {
  expect(response.status).toBe(401);
  return problemSchema.parse(await response.json());
}

describe('the idle time, told and kept', () => {
  it('every signed-in answer says how long the session stays on without use; background ones do not extend it', async () => {
    const { bff, pass } = onClock();
    try {
      const cookie = await signInOn(bff.app, 'demo', PASSWORD);
      pass(100);
      const polled = await bff.app.request('/api/config', withCookie(cookie, background));
      expect(polled.status).toBe(200);
      expect(idleLeft(polled)).toBe(String(IDLE - 100));
      pass(200);
      const session = await bff.app.request('/api/session', withCookie(cookie, background));
      expect(idleLeft(session)).toBe(String(IDLE - 300));
      // A request the user made restarts it
      const used = await bff.app.request('/api/payments?limit=1', withCookie(cookie));
      expect(used.status).toBe(200);
      expect(idleLeft(used)).toBe(String(IDLE));
      pass(IDLE - 1);
      expect(idleLeft(await bff.app.request('/api/session', withCookie(cookie, background)))).toBe('1');
    } finally {
      await bff.close();
    }
  });

  it('rides on a streamed answer (the summary) too', async () => {
    const cookie = await h.signIn('demo');
    const stream = await h.call('/api/payments/summary', {
      cookie,
      headers: { Accept: 'text/event-stream' },
    });
    expect(stream.status).toBe(200);
    expect(Number(idleLeft(stream))).toBe(h.settings.SESSION_IDLE_TIMEOUT);
    await stream.body?.cancel();
  });

  it('is not told on an answer without a session', async () => {
    const response = await h.call('/api/config');
    expect(response.status).toBe(401);
    expect(idleLeft(response)).toBeNull();
  });
});

describe('why a session ended, on the 401', () => {
  it('says "idle" for a session that ran out of idle time, on every later request, background or not', async () => {
    const { bff, pass } = onClock();
    try {
      const cookie = await signInOn(bff.app, 'demo', PASSWORD);
      // Polls alone do not keep it on
      for (let i = 0; i < 5; i++) {
        pass(IDLE / 5);
        await bff.app.request('/api/config', withCookie(cookie, background));
      }
      for (const init of [withCookie(cookie, background), withCookie(cookie)]) {
        const problem = await problemOf(await bff.app.request('/api/session', init));
        expect(problem.code).toBe('unauthenticated');
        expect(problem.reason).toBe(SESSION_ENDED_IDLE);
      }
    } finally {
      await bff.close();
    }
  });

  it('says no reason after sign-out, sign-out everywhere, the max age, or for a cookie never issued', async () => {
    const { bff, pass } = onClock();
    try {
      const signedOut = await signInOn(bff.app, 'demo', PASSWORD);
      await bff.app.request('/api/session', { ...withCookie(signedOut), method: 'DELETE' });
      const everywhere = await signInOn(bff.app, 'eu-only', PASSWORD);
      const other = await signInOn(bff.app, 'eu-only', PASSWORD);
      await bff.app.request('/api/session?everywhere=true', { ...withCookie(other), method: 'DELETE' });
      const made = `session=${'A'.repeat(43)}`;
      for (const cookie of [signedOut, everywhere, made]) {
        // Later than the idle time too: a session signed out does not turn into one that idled.
        for (const wait of [0, IDLE + 1]) {
          pass(wait);
          const problem = await problemOf(await bff.app.request('/api/config', withCookie(cookie)));
          expect(problem.code).toBe('unauthenticated');
          expect(problem.reason, cookie).toBeUndefined();
        }
      }
    } finally {
      await bff.close();
    }
  });

  it('says no reason for a session past its max age, though in use', async () => {
    let time = Date.now();
    const now = () => time;
    const bff = h.make({
      settings: { SESSION_IDLE_TIMEOUT: 60, SESSION_MAX_AGE: 300 },
      parts: { now, sharedState: createEmbeddedState({ now }) },
    });
    try {
      const cookie = await signInOn(bff.app, 'demo', PASSWORD);
      for (let used = 0; used < 300; used += 50) {
        time += 50_000;
        await bff.app.request('/api/config', withCookie(cookie));
      }
      const problem = await problemOf(await bff.app.request('/api/config', withCookie(cookie)));
      expect(problem.reason).toBeUndefined();
    } finally {
      await bff.close();
    }
  });
});
