import { describe, expect, it } from 'vitest';
import { evenWorld, generatedUpstream } from '../../../upstream/testing/generated-upstream.ts';
import { InProcessDispatcher } from '../../../upstream/testing/in-process-dispatcher.ts';
import type { BffSettings } from '../../create-bff.ts';
import { createTestBff } from '../../testing/bff-harness.ts';

/**
 * UPSTREAM_INDEXER=on with cursors that expire: what a remembered position is worth lasts a cursor's lifetime,
 * so the indexer keeps the top and the last three month starts live, and walks no deeper.
 */

const START = Date.UTC(2025, 0, 1) / 1000;

/** The pages the indexer read per company in its first round, with these settings, on 15 June 2025. */
async function firstRound(settings: Partial<BffSettings>) {
  // Two companies of 2,000 payments each from January to June 2025.
  const world = evenWorld({ companies: 2, rows: 2_000, days: 180, start: START });
  const upstream = generatedUpstream(world);
  const bff = await createTestBff({
    upstream: {
      baseUrl: 'http://generated.test/v1',
      credentials: upstream.credentials,
      dispatcher: new InProcessDispatcher((request) => upstream.app.fetch(request)),
    },
    companies: world.companies.map(({ id, name, parent_id }) => ({ id, name, parent_id })),
    settings: { PAYMENTS_TIME_ZONE: 'UTC', UPSTREAM_INDEXER: 'on', ...settings },
    parts: { now: () => Date.UTC(2025, 5, 15) },
  });
  try {
    const indexed = () => bff.logs.map((line) => JSON.parse(line)).filter((line) => line.msg === 'indexed');
    for (let i = 0; i < 400 && indexed().length < 2; i++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    return { pages: indexed().map((line) => line.pages as number) };
  } finally {
    await bff.close();
  }
}

describe('the indexer', () => {
  it('walks every company to its end while cursors are not known to expire', async () => {
    const { pages } = await firstRound({});
    expect(pages).toEqual([20, 20]);
  });

  it('with UPSTREAM_CURSOR_TTL, walks each company down to the start of the month two months back only', async () => {
    const { pages } = await firstRound({ UPSTREAM_CURSOR_TTL: 60 });
    // From 31 March on (a day's slack for time zones): 91 of 180 days, 1,011 of 2,000 rows, 11 pages.
    expect(pages).toEqual([11, 11]);
  });
});
