import { setTimeout as sleep } from 'node:timers/promises';
import { PROBLEM_CONTENT_TYPE } from '@payments/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmbeddedState, createRedisState, type SharedState } from '../../shared-state/index.ts';
import {
  type RedisServer,
  redisServerAvailable,
  startRedisServer,
} from '../../shared-state/testing/redis-server.ts';
import { type CodeGuard, createCodeGuard } from './code-guard.ts';
import { signInApp } from './testing/sign-in-app.ts';
import { base32Decode, newTotpSecret, totpCode } from './totp.ts';

const SECRET = newTotpSecret();
const codeAt = (time: number) => totpCode(base32Decode(SECRET), time);
/** The i-th code of a guesser: distinct, and never one accepted around `time` (the test must not win by luck). */
function guess(i: number, time: number): string {
  const accepted = new Set([-30_000, 0, 30_000].map((offset) => codeAt(time + offset)));
  for (let n = i; ; n += 1_000_003) {
    const code = String(n % 1_000_000).padStart(6, '0');
    if (!accepted.has(code)) return code;
  }
}
/** The guesser's addresses: 1,000, each used in turn. */
const addressOf = (i: number) => `10.9.${(i % 1000) >> 8}.${(i % 1000) & 255}`;

describe('second-factor codes are limited per user, across every address', () => {
  it('judges at most 4 codes an hour of a guesser with the password, from 1,000 addresses, asking every 5 s for 6 h', async () => {
    const app = await signInApp([{ username: 'tina', totpSecret: SECRET }]);
    const judgedPerHour: number[] = [];
    const waits: number[] = [];
    let i = 0;
    for (let hour = 0; hour < 6; hour++) {
      let judged = 0;
      for (let second = 0; second < 3600; second += 5, i++) {
        const answer = await app.signIn('tina', { totp: guess(i, app.now()), address: addressOf(i) });
        // A refusal without a judgement is a 429 saying when to ask again; any other answer judged the code.
        if (answer.status === 429 && answer.code === 'rate_limited') waits.push(answer.retryAfter ?? 0);
        else {
          expect(answer).toMatchObject({ status: 401, code: 'invalid_credentials' });
          judged += 1;
        }
        app.advance(5_000);
      }
      judgedPerHour.push(judged);
    }
    console.log(
      `codes judged per hour: ${judgedPerHour.join(', ')}; longest Retry-After ${Math.max(...waits)} s`,
    );
    // 5 free, then waits of 15 s doubling up to 15 min: 5 + 7 in the first hour (and a turn or two more).
    expect(judgedPerHour[0]).toBeLessThanOrEqual(5 + 7 + 2);
    // Then one turn every 15 min: 4 an hour, so one of the 3 accepted codes in 1e6 takes ~9.5 years on average.
    for (const judged of judgedPerHour.slice(1)) expect(judged).toBeLessThanOrEqual(5);
    expect(judgedPerHour.slice(1).reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(4 * 5 + 1);
    // Never told to wait longer than 15 min.
    expect(Math.max(...waits)).toBeLessThanOrEqual(900);
    // No password was checked for a wrong code.
    expect(app.hashes).toEqual([]);
  }, 120_000);

  it('refuses with 429 problem+json and a Retry-After, and takes her right code once that time has passed', async () => {
    const app = await signInApp([{ username: 'tina', totpSecret: SECRET }]);
    for (let i = 0; i < 6; i++)
      await app.signIn('tina', { totp: guess(i, app.now()), address: addressOf(i) });
    const refused = await app.signIn('tina', { totp: codeAt(app.now()), address: '192.0.2.7' });
    expect(refused).toMatchObject({ status: 429, code: 'rate_limited', contentType: PROBLEM_CONTENT_TYPE });
    expect(refused.retryAfter).toBeGreaterThan(0);
    expect(refused.retryAfter).toBeLessThanOrEqual(15);
    expect(refused.text).toMatch(/codes are taken one at a time: try again in about \d+ s/);
    app.advance((refused.retryAfter ?? 0) * 1000);
    expect(await app.signIn('tina', { totp: codeAt(app.now()), address: '192.0.2.7' })).toMatchObject({
      status: 200,
    });
    expect(app.hashes).toEqual(['tina']);
  });

  it('signs her in at once from a browser she signed in with before, however many codes a guesser tried', async () => {
    const app = await signInApp([{ username: 'tina', totpSecret: SECRET }]);
    const first = await app.signIn('tina', { totp: codeAt(app.now()), address: '192.0.2.7' });
    expect(first.status).toBe(200);
    const cookie = first.deviceCookie;
    expect(cookie).toBeDefined();
    for (let i = 0; i < 200; i++) {
      await app.signIn('tina', { totp: guess(i, app.now()), address: addressOf(i) });
      app.advance(1_000);
    }
    // A new device waits; her own browser does not.
    expect(await app.signIn('tina', { totp: codeAt(app.now()), address: '192.0.2.8' })).toMatchObject({
      status: 429,
    });
    app.advance(30_000);
    expect(
      await app.signIn('tina', {
        totp: codeAt(app.now()),
        address: '192.0.2.7',
        ...(cookie ? { cookie } : {}),
      }),
    ).toMatchObject({ status: 200 });
  });

  it('counts a code repeated within its time step once: a flood of one code holds nobody up', async () => {
    const app = await signInApp([{ username: 'tina', totpSecret: SECRET }]);
    const code = guess(0, app.now());
    for (let i = 0; i < 500; i++)
      expect(await app.signIn('tina', { totp: code, address: addressOf(i) })).toMatchObject({
        status: 401,
        code: 'invalid_credentials',
      });
    expect(await app.signIn('tina', { totp: codeAt(app.now()), address: '192.0.2.9' })).toMatchObject({
      status: 200,
    });
  });
});

const hasRedis = redisServerAvailable();
let redis: RedisServer | undefined;
beforeAll(async () => {
  if (hasRedis) redis = await startRedisServer();
}, 20_000);
afterAll(async () => {
  await redis?.stop();
});

/** A Redis store once it answers (the client connects in the background). */
async function readyRedis(): Promise<SharedState> {
  const state = createRedisState({
    url: (redis as RedisServer).url,
    keyPrefix: `code-guard-${Math.random()}:`,
  });
  for (let i = 0; i < 100; i++) {
    try {
      await state.ping();
      return state;
    } catch {
      await sleep(50);
    }
  }
  throw new Error('the store never became ready');
}

const stores: [string, () => Promise<SharedState>][] = [
  ['embedded', async () => createEmbeddedState()],
  ...(hasRedis ? ([['redis', readyRedis]] as [string, () => Promise<SharedState>][]) : []),
];

describe.each(stores)('the code guard on the %s store', (_name, make) => {
  it('counts the wrong codes of every replica sharing the store as one count', async () => {
    const state = await make();
    // Real time here (Redis keeps its own): a first wait of 2 s, far longer than a few round trips.
    const replicas = [
      createCodeGuard(state, { firstWaitMs: 2_000 }),
      createCodeGuard(state, { firstWaitMs: 2_000 }),
    ];
    const [one, two] = replicas as [CodeGuard, CodeGuard];
    const step = 1_000;
    try {
      for (let i = 0; i < 5; i++) {
        const replica = i % 2 === 0 ? one : two;
        expect(await replica.admit('tina', step, `00000${i}`, false)).toEqual({ judge: true });
        await replica.judged('tina', step, `00000${i}`, false, false);
      }
      // The sixth is judged and starts the first wait; the seventh, on the other replica, is told to wait.
      expect(await two.admit('tina', step, '000005', false)).toEqual({ judge: true });
      await two.judged('tina', step, '000005', false, false);
      expect(await one.admit('tina', step, '000006', false)).toEqual({
        judge: false,
        reason: 'slowed',
        retryAfterSeconds: 2,
      });
      // A code already found wrong in this step is known wrong on both, without a count or a wait.
      expect(await one.admit('tina', step, '000001', false)).toEqual({ judge: false, reason: 'tried' });
      // A browser with her device cookie is not held up by the wait.
      expect(await one.admit('tina', step, '123456', true)).toEqual({ judge: true });
      await sleep(2_100);
      expect(await one.admit('tina', step, '000006', false)).toEqual({ judge: true });
    } finally {
      await state.close();
    }
  });
});
