import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmbeddedState } from './embedded-state.ts';
import { createRedisState } from './redis-state.ts';
import { type SharedState, SharedStateUnavailable } from './shared-state.ts';
import { type RedisServer, redisServerAvailable, startRedisServer } from './testing/redis-server.ts';

const hasRedis = redisServerAvailable();
let redis: RedisServer | undefined;
beforeAll(async () => {
  if (hasRedis) redis = await startRedisServer();
}, 20_000);
afterAll(async () => {
  await redis?.stop();
});

async function waitUntilReady(state: SharedState) {
  for (let i = 0; i < 100; i++) {
    try {
      return await state.ping();
    } catch {
      await sleep(50);
    }
  }
  throw new Error('the store never became ready');
}

const stores: [string, () => Promise<SharedState>][] = [
  ['embedded', async () => createEmbeddedState()],
  ...(hasRedis
    ? ([
        [
          'redis',
          async () => {
            const state = createRedisState({
              url: (redis as RedisServer).url,
              keyPrefix: `t${Math.random()}:`,
            });
            await waitUntilReady(state);
            return state;
          },
        ],
      ] as [string, () => Promise<SharedState>][])
    : []),
];

describe.each(stores)('the %s shared state', (_name, make) => {
  let state: SharedState;
  beforeAll(async () => {
    state = await make();
  });
  afterAll(async () => {
    await state.close();
  });

  it('keeps a value for its time to live, and getAndTouch restarts that time', async () => {
    await state.set('k', 'v', 300);
    expect(await state.get('k')).toBe('v');
    await sleep(200);
    expect(await state.getAndTouch('k', 300)).toBe('v');
    await sleep(200);
    expect(await state.get('k')).toBe('v');
    await sleep(250);
    expect(await state.get('k')).toBeNull();
    expect(await state.getAndTouch('k', 300)).toBeNull();
  });

  it('sets a key only when it is absent, and tells how long it has left', async () => {
    expect(await state.setIfAbsent('once', 'a', 5_000)).toBe(true);
    expect(await state.setIfAbsent('once', 'b', 5_000)).toBe(false);
    expect(await state.get('once')).toBe('a');
    expect(await state.timeLeft('once')).toBeGreaterThan(4_000);
    await state.delete('once', 'never-set');
    expect(await state.timeLeft('once')).toBe(0);
  });

  it('counts from zero with a time to live set at creation, not extended by increments', async () => {
    expect(await state.increment('c', 1, 300)).toBe(1);
    await sleep(200);
    expect(await state.increment('c', 2, 300)).toBe(3);
    expect(await state.increment('c', -1, 300)).toBe(2);
    await sleep(150);
    expect(await state.increment('c', 1, 300)).toBe(1);
  });

  it("slides a counter's time to live forward on each increment when asked", async () => {
    expect(await state.increment('slid', 1, 300, { slide: true })).toBe(1);
    await sleep(200);
    expect(await state.increment('slid', 1, 300, { slide: true })).toBe(2);
    await sleep(200);
    expect(await state.increment('slid', 1, 300, { slide: true })).toBe(3);
  });

  it('holds a set of members', async () => {
    await state.addMember('s', 'a', 5_000);
    await state.addMember('s', 'b', 5_000);
    await state.addMember('s', 'a', 5_000);
    expect((await state.members('s')).sort()).toEqual(['a', 'b']);
    await state.removeMember('s', 'a');
    expect(await state.members('s')).toEqual(['b']);
    expect(await state.members('none')).toEqual([]);
  });

  it('gives at most `limit` places, frees them on release and when a lease runs out', async () => {
    expect(await state.acquire('p', 'h1', 2, 300)).toBe(true);
    expect(await state.acquire('p', 'h2', 2, 5_000)).toBe(true);
    expect(await state.acquire('p', 'h3', 2, 5_000)).toBe(false);
    // A holder asking again keeps its place.
    expect(await state.acquire('p', 'h2', 2, 5_000)).toBe(true);
    await state.release('p', 'h2');
    expect(await state.acquire('p', 'h3', 2, 5_000)).toBe(true);
    await sleep(350);
    // h1's lease ran out without renewal: its place is free, and renewing it says it was lost.
    expect(await state.renew('p', 'h1', 5_000)).toBe(false);
    expect(await state.acquire('p', 'h4', 2, 5_000)).toBe(true);
    expect(await state.renew('p', 'h4', 5_000)).toBe(true);
    expect(await state.acquire('p', 'h5', 2, 5_000)).toBe(false);
  });

  it('hands out turns of a rate one interval apart, and a pause moves every later turn', async () => {
    const waits = await Promise.all(Array.from({ length: 5 }, () => state.reserveTurn('rate', 100)));
    const sorted = waits.toSorted((a, b) => a - b);
    expect(sorted[0]).toBeLessThanOrEqual(5);
    // Each turn one interval after the one before (a few ms of clock between the calls allowed).
    for (let i = 1; i < sorted.length; i++)
      expect((sorted[i] as number) - (sorted[i - 1] as number)).toBeGreaterThanOrEqual(90);
    await state.holdTurns('paused', 1_000);
    const wait = await state.reserveTurn('paused', 10);
    expect(wait).toBeGreaterThan(900);
    expect(wait).toBeLessThanOrEqual(1_000);
  });

  it('keeps members ordered by score, in either direction, counted, and at most `max` of them', async () => {
    for (const [member, score] of [
      ['c', 30],
      ['a', 10],
      ['b', 20],
      ['d', 40],
    ] as const)
      await state.addScored('sc', member, score, { ttlMs: 5_000, max: 3 });
    // The lowest score left first.
    expect(await state.rangeScored('sc', { min: 0, max: 100, limit: 10 })).toEqual(['b', 'c', 'd']);
    expect(await state.rangeScored('sc', { min: 21, max: 100, limit: 1 })).toEqual(['c']);
    expect(await state.rangeScored('sc', { min: 0, max: 35, reverse: true, limit: 10 })).toEqual(['c', 'b']);
    expect(await state.rangeScored('sc', { min: 0, max: 100, offset: 1, limit: 1 })).toEqual(['c']);
    expect(await state.countScored('sc', 20, 30)).toBe(2);
    // A member added again moves to its new score.
    await state.addScored('sc', 'b', 50, { ttlMs: 5_000, max: 3 });
    expect(await state.rangeScored('sc', { min: 0, max: 100, limit: 10 })).toEqual(['c', 'd', 'b']);
    await state.removeScored('sc', 'd');
    expect(await state.countScored('sc', 0, 100)).toBe(2);
    expect(await state.rangeScored('none', { min: 0, max: 100, limit: 10 })).toEqual([]);
  });

  it('gives a turn every spacingMs to the first in line, in order of arrival, one place per holder however often it asks', async () => {
    // Times on the store's real clock: a spacing long enough that the calls between two checks (on a loaded
    // machine, up to hundreds of milliseconds) cannot move a wait into the next place.
    const spacing = 1_500;
    const keep = 5_000;
    const near = (ms: number, expected: number) => {
      expect(ms).toBeGreaterThanOrEqual(expected - spacing / 4);
      expect(ms).toBeLessThanOrEqual(expected);
    };
    // An empty line: the first holder's turn is now, and its place is used.
    expect(await state.takeTurn('line', 'a', spacing, keep)).toBe(0);
    near(await state.takeTurn('line', 'b', spacing, keep), spacing);
    near(await state.takeTurn('line', 'c', spacing, keep), 2 * spacing);
    // b asking again and again keeps its place: neither earlier nor later, and c's is unchanged.
    for (let i = 0; i < 20; i++) near(await state.takeTurn('line', 'b', spacing, keep), spacing);
    near(await state.takeTurn('line', 'c', spacing, keep), 2 * spacing);
    await sleep(spacing + 10);
    // c asking first at the turn does not take it: it is b's.
    near(await state.takeTurn('line', 'c', spacing, keep), spacing);
    expect(await state.takeTurn('line', 'b', spacing, keep)).toBe(0);
    // b's place is used: asking again queues behind c.
    near(await state.takeTurn('line', 'b', spacing, keep), 2 * spacing);
    near(await state.takeTurn('line', 'c', spacing, keep), spacing);
  });

  it('keeps at most maxPlaces in line: a newcomer finds none, those in line keep theirs', async () => {
    expect(await state.takeTurn('short', 'a', 10_000, 5_000, 2)).toBe(0);
    expect(await state.takeTurn('short', 'b', 10_000, 5_000, 2)).toBeGreaterThan(0);
    expect(await state.takeTurn('short', 'c', 10_000, 5_000, 2)).toBeGreaterThan(0);
    expect(await state.takeTurn('short', 'd', 10_000, 5_000, 2)).toBe(-1);
    // d was not put in line: b and c keep their places, and d still finds none.
    expect(await state.takeTurn('short', 'b', 10_000, 5_000, 2)).toBeGreaterThan(0);
    expect(await state.takeTurn('short', 'c', 10_000, 5_000, 2)).toBeGreaterThan(0);
    expect(await state.takeTurn('short', 'd', 10_000, 5_000, 2)).toBe(-1);
  });

  it('drops a holder that stops asking for keepMs, and those behind move up', async () => {
    // b asks again after 800 ms, within its 1,500 (700 ms to spare for a loaded machine); 'gone' never does.
    expect(await state.takeTurn('lapse', 'a', 1_000, 1_500)).toBe(0);
    expect(await state.takeTurn('lapse', 'gone', 1_000, 1_500)).toBeGreaterThan(0);
    expect(await state.takeTurn('lapse', 'b', 1_000, 1_500)).toBeGreaterThan(1_000);
    await sleep(800);
    // Still behind 'gone': its turn ~1,200 ms away (with 'gone' dropped it would be ~200).
    expect(await state.takeTurn('lapse', 'b', 1_000, 1_500)).toBeGreaterThan(500);
    await sleep(800);
    // 'gone' last asked 1,600 ms ago: b is first now, and the turn is due.
    expect(await state.takeTurn('lapse', 'b', 1_000, 1_500)).toBe(0);
  });

  it('gives one place per holder under concurrent requests', async () => {
    expect(await state.takeTurn('crowd', 'first', 10_000, 60_000)).toBe(0);
    const turns = await Promise.all(
      Array.from({ length: 30 }, (_, i) => state.takeTurn('crowd', `h${i % 3}`, 10_000, 60_000)),
    );
    expect([...new Set(turns.map((ms) => Math.round(ms / 10_000)))].sort()).toEqual([1, 2, 3]);
  });

  it("keeps at most perOwner entries of an owner, its least recently used leaving first, and no other owner's", async () => {
    const limits = { ttlMs: 60_000, perOwner: 3, maxBytes: 1_000_000 };
    await state.keepPooled('pool-a', 'bob', 'b1', 'x', limits);
    for (const id of ['a1', 'a2', 'a3']) await state.keepPooled('pool-a', 'ana', id, 'v', limits);
    // Reading a1 makes it the most recently used: a2 leaves when a4 comes.
    expect(await state.readPooled('pool-a', 'a1', 60_000)).toBe('v');
    await state.keepPooled('pool-a', 'ana', 'a4', 'v', limits);
    expect(await state.readPooled('pool-a', 'a2', 60_000)).toBeNull();
    // Keeping a kept id again refreshes it and adds nothing.
    await state.keepPooled('pool-a', 'ana', 'a3', 'v', limits);
    await state.keepPooled('pool-a', 'ana', 'a5', 'v', limits);
    expect(await state.readPooled('pool-a', 'a1', 60_000)).toBeNull();
    for (const id of ['a3', 'a4', 'a5']) expect(await state.readPooled('pool-a', id, 60_000)).toBe('v');
    expect(await state.readPooled('pool-a', 'b1', 60_000)).toBe('x');
    expect(await state.poolSize('pool-a')).toEqual({ entries: 4, bytes: 4 * 3 });
  });

  it('keeps a pool within maxBytes, the owners holding the most losing their least recently used first', async () => {
    const limits = { ttlMs: 60_000, perOwner: 100, maxBytes: 100 };
    const value = 'v'.repeat(28); // 30 bytes with its id
    await state.keepPooled('pool-b', 'bob', 'b1', value, limits);
    await state.keepPooled('pool-b', 'cy', 'c1', value, limits);
    for (let i = 0; i < 10; i++) await state.keepPooled('pool-b', 'ana', `a${i}`, value, limits);
    // ana's flood cost bob and cy nothing: the oldest of all (b1) stays while ana holds more.
    expect(await state.poolSize('pool-b')).toEqual({ entries: 3, bytes: 90 });
    expect(await state.readPooled('pool-b', 'a8', 60_000)).toBeNull();
    for (const id of ['b1', 'c1', 'a9']) expect(await state.readPooled('pool-b', id, 60_000)).toBe(value);
    // Everyone holds one: the least recently used of all leaves (c1, as b1 was read again).
    await state.readPooled('pool-b', 'b1', 60_000);
    await state.keepPooled('pool-b', 'dee', 'd1', value, limits);
    expect(await state.readPooled('pool-b', 'c1', 60_000)).toBeNull();
    // An entry larger than the pool is kept alone.
    await state.keepPooled('pool-b', 'bob', 'big', 'v'.repeat(500), limits);
    expect(await state.poolSize('pool-b')).toEqual({ entries: 1, bytes: 503 });
  });

  it('forgets a pooled entry ttlMs after its last use, and reading it restarts that time', async () => {
    // Delays only make more time pass: the idle entry is gone whatever they are; the read one stays unless the
    // machine stalls for 1.2 s.
    const limits = { ttlMs: 3_000, perOwner: 10, maxBytes: 10_000 };
    await state.keepPooled('pool-c', 'ana', 'read', 'v', limits);
    await state.keepPooled('pool-c', 'ana', 'idle', 'v', limits);
    await sleep(1_800);
    expect(await state.readPooled('pool-c', 'read', 3_000)).toBe('v');
    await sleep(1_800);
    expect(await state.readPooled('pool-c', 'idle', 3_000)).toBeNull();
    expect(await state.readPooled('pool-c', 'read', 3_000)).toBe('v');
    expect(await state.poolSize('pool-c')).toEqual({ entries: 1, bytes: 5 });
  });

  it('hands out places one at a time under concurrent requests', async () => {
    const tries = await Promise.all(
      Array.from({ length: 40 }, (_, i) => state.acquire('race', `h${i}`, 16, 5_000)),
    );
    expect(tries.filter(Boolean)).toHaveLength(16);
  });
});

describe.runIf(hasRedis)('the redis shared state when Redis goes away', () => {
  it('fails fast with SharedStateUnavailable while it is down and recovers by itself when it returns', async () => {
    const server = redis as RedisServer;
    const state = createRedisState({ url: server.url });
    try {
      await waitUntilReady(state);
      await state.set('x', '1', 60_000);
      await server.stop();
      const started = performance.now();
      await expect(state.get('x')).rejects.toBeInstanceOf(SharedStateUnavailable);
      expect(performance.now() - started).toBeLessThan(1_500);
      await server.start();
      await waitUntilReady(state);
      // A new, empty server: nothing of before is invented.
      expect(await state.get('x')).toBeNull();
    } finally {
      await state.close();
    }
  }, 20_000);
});
