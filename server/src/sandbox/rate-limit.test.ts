import { PROBLEM_CONTENT_TYPE, problemSchema } from '@payments/shared';
import { afterAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from './create-sandbox.ts';
import { createTokenBucket } from './rate-limit.ts';
import { list, SANDBOX_AUTH } from './testing/test-requests.ts';

function fakeClock() {
  let ms = 1_000_000;
  return {
    nowMs: () => ms,
    now: () => new Date(ms),
    advance(by: number) {
      ms += by;
    },
  };
}

const takeMany = (bucket: ReturnType<typeof createTokenBucket>, n: number) =>
  Array.from({ length: n }, () => bucket.take().ok).filter(Boolean).length;

describe('createTokenBucket', () => {
  it('admits one second of burst at once and refuses the next with Retry-After 1', () => {
    const clock = fakeClock();
    const bucket = createTokenBucket(40, clock.nowMs);
    expect(takeMany(bucket, 40)).toBe(40);
    expect(bucket.take()).toEqual({ ok: false, retryAfterSeconds: 1 });
  });

  it('refills continuously: one token every 1/rate seconds, never more than the capacity', () => {
    const clock = fakeClock();
    const bucket = createTokenBucket(40, clock.nowMs);
    takeMany(bucket, 40);
    clock.advance(24);
    expect(bucket.take().ok).toBe(false);
    clock.advance(1);
    expect(bucket.take().ok).toBe(true);
    expect(bucket.take().ok).toBe(false);
    clock.advance(500);
    expect(takeMany(bucket, 40)).toBe(20);
    clock.advance(60_000);
    expect(takeMany(bucket, 100)).toBe(40);
  });

  it('a refusal takes no token: a token is there by Retry-After however often the client asked', () => {
    const clock = fakeClock();
    const bucket = createTokenBucket(1, clock.nowMs);
    expect(bucket.take().ok).toBe(true);
    for (let i = 0; i < 9; i++) {
      clock.advance(100);
      expect(bucket.take()).toEqual({ ok: false, retryAfterSeconds: 1 });
    }
    clock.advance(100);
    expect(bucket.take().ok).toBe(true);
  });

  it('refuses a rate below one request per second', () => {
    expect(() => createTokenBucket(0.5, () => 0)).toThrow(/at least 1/);
  });
});

describe('rate_limit_rps in the sandbox', () => {
  const clock = fakeClock();
  const opened: Sandbox[] = [];
  afterAll(() => {
    for (const sandbox of opened) sandbox.close();
  });
  const open = () => {
    const sandbox = createSandbox({ seedCount: 300, faults: { rateLimitRps: 3 }, now: clock.now });
    opened.push(sandbox);
    return sandbox.app;
  };

  it('a burst beyond the capacity gets 429 rate_limited problems with Retry-After; a second later it passes', async () => {
    const app = open();
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await list(app, { query: { limit: '1' } })).status);
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    const refused = await list(app);
    expect(refused.headers.get('Content-Type')).toBe(PROBLEM_CONTENT_TYPE);
    expect(refused.headers.get('Retry-After')).toBe('1');
    expect(problemSchema.parse(await refused.json()).code).toBe('rate_limited');
    clock.advance(1_000);
    expect((await list(app)).status).toBe(200);
  });

  it('counts every /v1 request, signed in or not, and leaves /_sandbox alone', async () => {
    const app = open();
    expect((await list(app, { authorization: '' })).status).toBe(401);
    expect((await list(app, { path: '/v1/nowhere' })).status).toBe(404);
    expect((await list(app)).status).toBe(200);
    expect((await list(app)).status).toBe(429);
    const companies = await app.request('/_sandbox/companies', { headers: { Authorization: SANDBOX_AUTH } });
    expect(companies.status).toBe(200);
  });

  it('refuses before the latency: a refusal comes back at once', async () => {
    const sandbox = createSandbox({
      seedCount: 300,
      faults: { rateLimitRps: 1, latencyMs: 200 },
      now: clock.now,
    });
    opened.push(sandbox);
    let started = performance.now();
    expect((await list(sandbox.app)).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(199);
    started = performance.now();
    expect((await list(sandbox.app)).status).toBe(429);
    expect(performance.now() - started).toBeLessThan(100);
  });

  it('is off without rate_limit_rps', async () => {
    const sandbox = createSandbox({ seedCount: 300, now: clock.now });
    opened.push(sandbox);
    const statuses = await Promise.all(
      Array.from({ length: 50 }, async () => (await list(sandbox.app, { query: { limit: '1' } })).status),
    );
    expect(new Set(statuses)).toEqual(new Set([200]));
  });
});
