import { type Summary, summarySchema } from '@payments/shared';
import { describe, expect, it } from 'vitest';
import { createEmbeddedState, type SharedState } from '../../../shared-state/index.ts';
import { evenWorld, generatedUpstream } from '../../../upstream/testing/generated-upstream.ts';
import { InProcessDispatcher } from '../../../upstream/testing/in-process-dispatcher.ts';
import { createTestBff, signInOn } from '../../testing/bff-harness.ts';

/**
 * Per-day figures: after a company's exact walk, its days' counts and sums per status and currency are kept (no
 * payment), so a question of whole days they cover is answered with no upstream request, equal to a walk's answer.
 */

const START = Date.UTC(2025, 0, 1) / 1000;
const MONTHS = [
  ['2025-01-01T00:00:00', '2025-01-31T23:59:59'],
  ['2025-02-01T00:00:00', '2025-02-28T23:59:59'],
  ['2025-03-01T00:00:00', '2025-03-31T23:59:59'],
] as const;
const QUARTER = ['2025-01-01T00:00:00', '2025-03-31T23:59:59'] as const;

/** A store that remembers every value written to it, to show what is kept. */
function recording(state: SharedState) {
  const written: string[] = [];
  return {
    written,
    state: {
      ...state,
      set: (key: string, value: string, ttlMs: number) => {
        written.push(value);
        return state.set(key, value, ttlMs);
      },
    } as SharedState,
  };
}

async function setUp() {
  let clock = Date.UTC(2026, 0, 1);
  const now = () => clock;
  const world = evenWorld({ companies: 3, rows: 1_500, days: 100, start: START });
  const upstream = generatedUpstream(world, undefined, { now });
  const store = recording(createEmbeddedState());
  const bff = await createTestBff({
    upstream: {
      baseUrl: 'http://generated.test/v1',
      credentials: upstream.credentials,
      dispatcher: new InProcessDispatcher((request) => {
        clock += 200;
        return upstream.app.fetch(request);
      }),
    },
    companies: world.companies.map(({ id, name, parent_id }) => ({ id, name, parent_id })),
    settings: { PAYMENTS_TIME_ZONE: 'UTC', PAYMENTS_AMOUNT_UNIT: 'minor' },
    parts: { now, sharedState: store.state },
  });
  const cookie = await signInOn(bff.app);
  const summary = async ([from, to]: readonly [string, string], extra = '') => {
    const before = upstream.served();
    const response = await bff.app.request(
      `/api/payments/summary?group=true&date_from=${from}&date_to=${to}${extra}`,
      { headers: { 'X-CSRF': '1', cookie, 'X-Company-Id': 'co-0' } },
    );
    expect(response.status).toBe(200);
    const figures = summarySchema.parse(await response.json());
    clock += 1_000;
    return { figures, requests: upstream.served() - before };
  };
  return { world, bff, store, summary, now };
}

const withoutAsOf = ({ as_of: _, ...figures }: Summary) => figures;

describe('per-day figures', () => {
  it('answer a quarter after its months were counted with no upstream request, equal to its walk', async () => {
    const { world, bff, store, summary } = await setUp();
    try {
      const months = [];
      for (const month of MONTHS) months.push(await summary(month));
      expect(months.every((month) => month.requests > 0)).toBe(true);

      const quarter = await summary(QUARTER);
      expect(quarter.requests).toBe(0);
      // As of the oldest month's count.
      expect(quarter.figures.as_of).toBe(months[0]?.figures.as_of);
      const walked = await summary(QUARTER, '&fresh=true');
      expect(walked.requests).toBeGreaterThan(0);
      expect(withoutAsOf(quarter.figures)).toEqual(withoutAsOf(walked.figures));
      expect(quarter.figures.count).toBe(months.reduce((sum, m) => sum + m.figures.count, 0));

      // A status and a currency filter over counted days: answered from the same figures, equal to a walk.
      const filtered = await summary(MONTHS[1], '&status=FAILED&currency=USD,JPY');
      expect(filtered.requests).toBe(0);
      const filteredWalk = await summary(MONTHS[1], '&status=FAILED&currency=USD,JPY&fresh=true');
      expect(withoutAsOf(filtered.figures)).toEqual(withoutAsOf(filteredWalk.figures));
      expect(filtered.figures.count).toBeGreaterThan(0);

      // Several statuses too, each company's line included; an amount range or a search knows rows, so it walks.
      const several = await summary(MONTHS[2], '&status=FAILED,COMPLETED');
      expect(several.requests).toBe(0);
      const severalWalk = await summary(MONTHS[2], '&status=FAILED,COMPLETED&fresh=true');
      expect(withoutAsOf(several.figures)).toEqual(withoutAsOf(severalWalk.figures));
      expect(several.figures.companies).toHaveLength(world.companies.length);
      expect((await summary(MONTHS[2], '&amount_min=10')).requests).toBeGreaterThan(0);
      expect((await summary(MONTHS[2], '&q=co')).requests).toBeGreaterThan(0);

      // Nothing kept names a payment: only figures.
      const ids = world.companies.flatMap((company) => company.rows.map((row) => row.record.id as string));
      const kept = store.written.join('\n');
      expect(ids.filter((id) => kept.includes(`"${id}"`))).toEqual([]);
    } finally {
      await bff.close();
    }
  });

  it('do not answer a period that is not whole days, or days not yet counted', async () => {
    const { bff, summary } = await setUp();
    try {
      await summary(MONTHS[0]);
      expect((await summary(['2025-01-01T00:00:00', '2025-01-31T12:00:00'])).requests).toBeGreaterThan(0);
      expect((await summary(['2025-01-20T00:00:00', '2025-02-05T23:59:59'])).requests).toBeGreaterThan(0);
      // The walk of Jan 20 – Feb 5 kept its days: Feb 1 – 5 alone is answered now.
      expect((await summary(['2025-02-01T00:00:00', '2025-02-05T23:59:59'])).requests).toBe(0);
    } finally {
      await bff.close();
    }
  });
});
