import { describe, expect, it } from 'vitest';
import { createMetrics } from '../../../runtime/metrics.ts';
import { evenWorld, generatedUpstream } from '../../../upstream/testing/generated-upstream.ts';
import { InProcessDispatcher } from '../../../upstream/testing/in-process-dispatcher.ts';
import type { BffSettings } from '../../create-bff.ts';
import { createTestBff, signInOn } from '../../testing/bff-harness.ts';
import { createCursorLifetime } from './cursor-lifetime.ts';

/**
 * Remembered positions live as long as the upstream keeps their cursors: once the lifetime is known (configured,
 * or learned from the first refusals), walks stop trying cursors past it, so few requests go to refused cursors.
 */

const DAY = 86_400;
const START = Date.UTC(2025, 0, 1) / 1000;
const wall = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 19);

/** A small deterministic stream of numbers in [0, 1). */
function lcg(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

/**
 * A user asking 40 Refreshed summaries of a day, a week or a month somewhere in the 90 days, pausing up to 90 s
 * between them; every upstream request takes 200 ms of the clock. Counts requests and refused cursors from when
 * the lifetime is known (at once when configured).
 */
async function askAround(settings: Partial<BffSettings>) {
  let clock = Date.UTC(2026, 0, 1);
  const now = () => clock;
  const upstream = generatedUpstream(
    evenWorld({ companies: 2, rows: 3_000, days: 90, start: START }),
    undefined,
    { now, cursorTtlMs: 60_000 },
  );
  const bff = await createTestBff({
    upstream: {
      baseUrl: 'http://generated.test/v1',
      credentials: upstream.credentials,
      dispatcher: new InProcessDispatcher((request) => {
        clock += 200;
        return upstream.app.fetch(request);
      }),
    },
    companies: ['co-0', 'co-1'].map((id, c) => ({ id, name: `Company ${c}`, parent_id: c ? 'co-0' : null })),
    settings: { PAYMENTS_TIME_ZONE: 'UTC', PAYMENTS_AMOUNT_UNIT: 'minor', ...settings },
    parts: { now },
  });
  const learned = () =>
    bff.logs.map((line) => JSON.parse(line)).find((line) => line.msg === 'upstream_cursor_ttl');
  try {
    const cookie = await signInOn(bff.app);
    const random = lcg(7);
    let from: { served: number; expired: number } | undefined;
    for (let question = 0; question < 40; question++) {
      from ??= learned() ? { served: upstream.served(), expired: upstream.expired() } : undefined;
      const days = [1, 7, 30][Math.floor(random() * 3)] as number;
      const first = START + Math.floor(random() * (90 - days)) * DAY;
      const query = `date_from=${wall(first)}&date_to=${wall(first + days * DAY - 1)}&group=true&fresh=true`;
      const response = await bff.app.request(`/api/payments/summary?${query}`, {
        headers: { 'X-CSRF': '1', cookie, 'X-Company-Id': 'co-0' },
      });
      expect(response.status).toBe(200);
      clock += Math.floor(random() * 90_000);
    }
    const since = from ?? { served: upstream.served(), expired: upstream.expired() };
    return {
      requests: upstream.served() - since.served,
      refused: upstream.expired() - since.expired,
      learned: learned(),
    };
  } finally {
    await bff.close();
  }
}

describe('remembered positions and the upstream cursor lifetime', () => {
  it('with UPSTREAM_CURSOR_TTL, at most 3 % of upstream requests go to refused cursors', async () => {
    const { requests, refused, learned } = await askAround({ UPSTREAM_CURSOR_TTL: 60 });
    expect(learned).toMatchObject({ seconds: 60, source: 'configured' });
    expect(requests).toBeGreaterThan(100);
    expect(refused / requests).toBeLessThanOrEqual(0.03);
  });

  it('unset, learns the lifetime from the first refusals, says it, and then wastes at most 3 %', async () => {
    const { requests, refused, learned } = await askAround({});
    expect(learned?.source).toBe('learned');
    expect(learned?.seconds).toBeGreaterThanOrEqual(60);
    expect(learned?.seconds).toBeLessThanOrEqual(150);
    expect(requests).toBeGreaterThan(100);
    expect(refused / requests).toBeLessThanOrEqual(0.03);
  });
});

describe('the cursor lifetime in /metrics', () => {
  it('is exported as configured', async () => {
    const metrics = createMetrics();
    const upstream = generatedUpstream(evenWorld({ companies: 1, rows: 10, days: 1, start: START }));
    const bff = await createTestBff({
      upstream: {
        baseUrl: 'http://generated.test/v1',
        credentials: upstream.credentials,
        dispatcher: new InProcessDispatcher((request) => upstream.app.fetch(request)),
      },
      companies: [{ id: 'co-0', name: 'Company 0', parent_id: null }],
      settings: { UPSTREAM_CURSOR_TTL: 45 },
      parts: { metrics },
    });
    try {
      expect(await metrics.registry.metrics()).toContain(
        'payments_upstream_cursor_ttl_seconds{source="configured"} 45',
      );
    } finally {
      await bff.close();
    }
  });
});

describe('a cursor lifetime', () => {
  it('is learned from two refusals of cursors older than every accepted one, and forgotten when outlived', () => {
    let time = 1_000_000;
    const heard: number[] = [];
    const lifetime = createCursorLifetime({ now: () => time, onLearned: (seconds) => heard.push(seconds) });
    lifetime.observe(time - 30_000, false);
    // Younger than one accepted: refused for another reason.
    lifetime.observe(time - 10_000, true);
    lifetime.observe(time - 70_000, true);
    expect(lifetime.knownMs()).toBeUndefined();
    lifetime.observe(time - 65_000, true);
    expect(lifetime.knownMs()).toBe(65_000);
    expect(heard).toEqual([65]);
    expect(lifetime.usable(time - 40_000)).toBe(true);
    expect(lifetime.usable(time - 60_000)).toBe(false);
    time += 1;
    lifetime.observe(time - 80_000, false);
    expect(lifetime.knownMs()).toBeUndefined();
  });
});
