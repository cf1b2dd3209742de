import { setImmediate as tick } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmbeddedState, createRedisState, type SharedState } from '../shared-state/index.ts';
import {
  type RedisServer,
  redisServerAvailable,
  startRedisServer,
} from '../shared-state/testing/redis-server.ts';
import { type BudgetClock, createUpstreamBudget, type RequestClass } from './upstream-budget.ts';

/** A clock that moves only when told, and the sleeps it owes. */
function fakeClock(start = 1_000_000) {
  let time = start;
  const sleepers: { at: number; wake(): void }[] = [];
  const clock: BudgetClock = {
    now: () => time,
    sleep: (ms) =>
      new Promise<void>((wake) => {
        sleepers.push({ at: time + ms, wake });
      }),
  };
  return {
    clock,
    /** Moves time on by `ms`, waking the sleepers due, and lets the budget run what follows. */
    async advance(ms: number) {
      const until = time + ms;
      for (;;) {
        await settle();
        sleepers.sort((a, b) => a.at - b.at);
        const due = sleepers[0];
        if (!due || due.at > until) break;
        sleepers.shift();
        time = due.at;
        due.wake();
      }
      time = until;
      await settle();
    },
  };
}

async function settle() {
  for (let i = 0; i < 20; i++) await tick();
}

/** Takes turns and records, in order, which were granted and when; each attempt ends at once. */
function recorder(budget: ReturnType<typeof createUpstreamBudget>, clock: BudgetClock) {
  const granted: { name: string; at: number }[] = [];
  const take = (name: string, cls: RequestClass, user = 'u') =>
    budget.take({ cls, user }).then((end) => {
      granted.push({ name, at: clock.now() });
      end('ok');
    });
  return { granted, take };
}

describe('the upstream budget', () => {
  it('spaces attempts by the rate, and serves a page that arrives behind at most one walk request', async () => {
    const { clock, advance } = fakeClock();
    const state = createEmbeddedState({ now: clock.now });
    const budget = createUpstreamBudget({ state, maxRps: 10, maxConcurrency: 32, clock });
    const { granted, take } = recorder(budget, clock);
    for (let i = 0; i < 10; i++) void take(`walk-${i}`, 'walk');
    await advance(250);
    const before = granted.length;
    void take('page', 'page', 'someone-else');
    await advance(2_000);
    const pageAt = granted.findIndex((g) => g.name === 'page');
    expect(pageAt - before).toBeLessThanOrEqual(1);
    // One turn per 100 ms, everything served in the end.
    expect(granted).toHaveLength(11);
    for (let i = 1; i < granted.length; i++)
      expect((granted[i]?.at ?? 0) - (granted[i - 1]?.at ?? 0)).toBeGreaterThanOrEqual(100);
  });

  it('lets users take turns within a class: one user with many walks gets one share', async () => {
    const { clock, advance } = fakeClock();
    const budget = createUpstreamBudget({
      state: createEmbeddedState({ now: clock.now }),
      maxRps: 10,
      maxConcurrency: 32,
      clock,
    });
    const { granted, take } = recorder(budget, clock);
    for (let i = 0; i < 6; i++) void take(`a${i}`, 'walk', 'ana');
    for (let i = 0; i < 2; i++) void take(`b${i}`, 'walk', 'bob');
    await advance(2_000);
    // a0 was on its way before bob asked; then they alternate while both wait.
    expect(granted.map((g) => g.name)).toEqual(['a0', 'b0', 'a1', 'b1', 'a2', 'a3', 'a4', 'a5']);
  });

  it('pauses every class for a 429 Retry-After and slows down after it, then recovers', async () => {
    const { clock, advance } = fakeClock();
    const budget = createUpstreamBudget({
      state: createEmbeddedState({ now: clock.now }),
      maxRps: 10,
      maxConcurrency: 32,
      clock,
    });
    const { granted, take } = recorder(budget, clock);
    void take('first', 'walk');
    await advance(10);
    const refusedAt = clock.now();
    await budget.refused(3_000);
    void take('walk', 'walk');
    void take('page', 'page');
    void take('background', 'background');
    await advance(10_000);
    const after = granted.slice(1);
    expect(after.map((g) => g.name)).toEqual(['page', 'walk', 'background']);
    for (const g of after) expect(g.at).toBeGreaterThanOrEqual(refusedAt + 3_000);
    // Halved rate for a while: turns 200 ms apart instead of 100.
    expect((after[1]?.at ?? 0) - (after[0]?.at ?? 0)).toBeGreaterThanOrEqual(190);
  });

  it('holds at most the concurrency in flight: the next attempt goes when one ends', async () => {
    const { clock, advance } = fakeClock();
    const budget = createUpstreamBudget({
      state: createEmbeddedState({ now: clock.now }),
      maxConcurrency: 2,
      clock,
    });
    const ends: ((how: 'ok') => void)[] = [];
    let granted = 0;
    for (let i = 0; i < 3; i++)
      void budget.take({ cls: 'walk', user: `u${i}` }).then((end) => {
        granted += 1;
        ends.push(end);
      });
    await advance(100);
    expect(granted).toBe(2);
    ends[0]?.('ok');
    await advance(100);
    expect(granted).toBe(3);
  });

  /** Attempts held until the test ends them: which were granted, in order, and who holds how many places. */
  function holder(budget: ReturnType<typeof createUpstreamBudget>) {
    const order: string[] = [];
    const ends = new Map<string, (how: 'ok') => void>();
    const take = (name: string, cls: RequestClass, user: string) =>
      void budget.take({ cls, user }).then((end) => {
        order.push(name);
        ends.set(name, end);
      });
    return {
      order,
      take,
      end: (name: string) => {
        ends.get(name)?.('ok');
        ends.delete(name);
      },
      /** Places held now by the attempts whose names start with `prefix`. */
      held: (prefix: string) => [...ends.keys()].filter((name) => name.startsWith(prefix)).length,
    };
  }

  /** One attempt that takes `ms` from its turn to its end: the latency the budget sees. */
  async function seeLatency(
    budget: ReturnType<typeof createUpstreamBudget>,
    advance: (ms: number) => Promise<void>,
    ms: number,
  ) {
    let end: ((how: 'ok') => void) | undefined;
    void budget.take({ cls: 'page', user: 'probe' }).then((e) => {
      end = e;
    });
    await advance(0);
    await advance(ms);
    end?.('ok');
    await advance(0);
  }

  it("gives one user's walks the places rate × latency keeps busy: 10/s at 400 ms is 4, the rest wait their turn", async () => {
    const { clock, advance } = fakeClock();
    const budget = createUpstreamBudget({
      state: createEmbeddedState({ now: clock.now }),
      maxRps: 10,
      maxConcurrency: 32,
      clock,
    });
    await seeLatency(budget, advance, 400);
    const { held, take, order } = holder(budget);
    for (let i = 0; i < 10; i++) take(`ana-walk-${i}`, 'walk', 'ana');
    take('ana-page', 'page', 'ana');
    await advance(5_000);
    // Nothing has ended: Ana holds 4 places (10/s × 0.4 s), her page is in beside them.
    expect(held('ana-walk')).toBe(4);
    expect(order).toContain('ana-page');
    expect(budget.waiting().walk).toBe(6);
  });

  it('gives at least 2 places when the upstream answers faster than the rate spaces turns', async () => {
    const { clock, advance } = fakeClock();
    const budget = createUpstreamBudget({
      state: createEmbeddedState({ now: clock.now }),
      maxRps: 10,
      maxConcurrency: 32,
      clock,
    });
    await seeLatency(budget, advance, 30);
    const { held, take } = holder(budget);
    for (let i = 0; i < 6; i++) take(`ana-walk-${i}`, 'walk', 'ana');
    await advance(5_000);
    expect(held('ana-walk')).toBe(2);
  });

  it("admits another user's walk before the first user's next one once she holds her share; hers go as hers end and as the latency seen grows", async () => {
    const { clock, advance } = fakeClock();
    const budget = createUpstreamBudget({
      state: createEmbeddedState({ now: clock.now }),
      maxRps: 10,
      maxConcurrency: 32,
      clock,
    });
    await seeLatency(budget, advance, 300);
    const { order, take, end, held } = holder(budget);
    for (let i = 0; i < 6; i++) take(`ana-${i}`, 'walk', 'ana');
    await advance(1_000);
    expect(order).toEqual(['ana-0', 'ana-1', 'ana-2']);
    take('bob-0', 'walk', 'bob');
    await advance(1_000);
    expect(order.at(-1)).toBe('bob-0');
    end('ana-0');
    await advance(1_000);
    // Ana's place went back to her; and her walk took 2 s, so the latency seen rose to 0.8 × 300 + 0.2 × 2,000 =
    // 640 ms and her share with it, to 7: her last two walks are in too.
    expect(order).toEqual(['ana-0', 'ana-1', 'ana-2', 'bob-0', 'ana-3', 'ana-4', 'ana-5']);
    expect(held('ana')).toBe(5);
  });

  it('without a rate, splits the places between the users walking and one more: alone 4 of 8, with a second user 2 each', async () => {
    const { clock, advance } = fakeClock();
    const budget = createUpstreamBudget({
      state: createEmbeddedState({ now: clock.now }),
      maxConcurrency: 8,
      clock,
    });
    const { held, take, end, order } = holder(budget);
    for (let i = 0; i < 6; i++) take(`ana-${i}`, 'walk', 'ana');
    await advance(100);
    expect(held('ana')).toBe(4);
    for (let i = 0; i < 6; i++) take(`bob-${i}`, 'walk', 'bob');
    take('cy-page', 'page', 'cy');
    await advance(100);
    // 8 places over 2 walkers and 1 more: 2 each. Bob gets his 2 and a page its place; Ana keeps what she holds
    // until it ends, and then holds no more than her 2.
    expect(held('bob')).toBe(2);
    expect(order).toContain('cy-page');
    for (let i = 0; i < 4; i++) end(`ana-${i}`);
    await advance(100);
    expect(held('ana')).toBe(2);
    expect(held('bob')).toBe(2);
  });

  it('lets a caller that goes away leave the queue: its turn is not given to it', async () => {
    const { clock, advance } = fakeClock();
    const budget = createUpstreamBudget({
      state: createEmbeddedState({ now: clock.now }),
      maxRps: 10,
      maxConcurrency: 32,
      clock,
    });
    const { granted, take } = recorder(budget, clock);
    void take('w0', 'walk');
    const leaving = new AbortController();
    const left = budget.take({ cls: 'walk', user: 'u', signal: leaving.signal });
    void take('w2', 'walk');
    leaving.abort(new Error('gone'));
    await expect(left).rejects.toThrow('gone');
    await advance(1_000);
    expect(granted.map((g) => g.name)).toEqual(['w0', 'w2']);
    expect(budget.waiting()).toEqual({ page: 0, walk: 0, background: 0 });
  });
});

const hasRedis = redisServerAvailable();
describe.runIf(hasRedis)('the upstream budget across replicas', () => {
  let redis: RedisServer;
  const states: SharedState[] = [];
  beforeAll(async () => {
    redis = await startRedisServer();
  }, 20_000);
  afterAll(async () => {
    for (const state of states) await state.close();
    await redis.stop();
  });

  it('two replicas on one Redis stay within one rate: 30 turns, each one interval after the one before', async () => {
    const prefix = `budget${Math.random()}:`;
    // One turn every 10 s: far longer than it takes to reserve all 30, however loaded the machine, so each turn
    // Redis hands out is counted by its place in one shared line, not timed.
    const intervalMs = 10_000;
    const waits: number[] = [];
    // Sleeps are not waited (the wait Redis told is what is counted); the budget's other times stay real.
    const clock: BudgetClock = { now: Date.now, sleep: async () => undefined };
    const replicas = [0, 1].map(() => {
      const redisState = createRedisState({ url: redis.url, keyPrefix: prefix });
      states.push(redisState);
      const state: SharedState = Object.create(redisState, {
        reserveTurn: {
          value: async (key: string, ms: number) => {
            const wait = await redisState.reserveTurn(key, ms);
            waits.push(wait);
            return wait;
          },
        },
      });
      return createUpstreamBudget({ state, maxRps: 1000 / intervalMs, maxConcurrency: 32, clock });
    });
    for (const state of states)
      for (
        let i = 0;
        i < 50 &&
        (await state.ping().then(
          () => false,
          () => true,
        ));
        i++
      )
        await new Promise((r) => setTimeout(r, 50));
    let granted = 0;
    await Promise.all(
      replicas.flatMap((budget, r) =>
        Array.from({ length: 15 }, () =>
          budget.take({ cls: 'walk', user: `user-${r}` }).then((end) => {
            granted += 1;
            end('ok');
          }),
        ),
      ),
    );
    expect(granted).toBe(30);
    // 30 turns of one line: the n-th is n intervals after the first. Two lines (one per replica) would give each
    // place twice, 0-14.
    const places = waits.map((ms) => Math.round(ms / intervalMs)).sort((a, b) => a - b);
    expect(places).toEqual(Array.from({ length: 30 }, (_, n) => n));
  }, 20_000);
});
