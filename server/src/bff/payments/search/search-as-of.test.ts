import { describe, expect, it } from 'vitest';
import { evenWorld, generatedUpstream } from '../../../upstream/testing/generated-upstream.ts';
import { InProcessDispatcher } from '../../../upstream/testing/in-process-dispatcher.ts';
import { createTestBff, signInOn } from '../../testing/bff-harness.ts';

describe('a search as of when it was asked', () => {
  it('reads its pages anew rather than reuse one fetched before, and says as_of its start', async () => {
    const world = evenWorld({ companies: 1, rows: 60, days: 5, start: Date.UTC(2026, 0, 1) / 1000 });
    const upstream = generatedUpstream(world);
    let clock = Date.UTC(2026, 1, 1);
    const bff = await createTestBff({
      upstream: {
        baseUrl: 'http://generated.test/v1',
        credentials: upstream.credentials,
        dispatcher: new InProcessDispatcher((request) => upstream.app.fetch(request)),
        // A page fetched a minute ago would answer the same request again, but not a search asked after it.
        pageReuseMs: 60_000,
      },
      companies: world.companies.map(({ id, name, parent_id }) => ({ id, name, parent_id })),
      settings: {
        PAYMENTS_LIST_ORDER: world.order,
        PAYMENTS_TIME_ZONE: 'UTC',
        PAYMENTS_AMOUNT_UNIT: 'minor',
      },
      parts: { now: () => clock },
    });
    try {
      const cookie = await signInOn(bff.app);
      const headers = { 'X-CSRF': '1', cookie, 'X-Company-Id': 'co-0' };
      const list = await bff.app.request('/api/payments?limit=100', { headers });
      expect(list.status).toBe(200);
      const listed = upstream.served();
      // The same first page again within the reuse time: the list's own request is answered without the upstream.
      await bff.app.request('/api/payments?limit=100', { headers });
      expect(upstream.served()).toBe(listed);
      clock += 5_000;
      const asked = clock;
      const search = await bff.app.request('/api/payments/search?q=p0-1', { headers });
      const text = await search.text();
      const start = JSON.parse(/event: start\ndata: (.*)\n/.exec(text)?.[1] ?? 'null');
      expect(Date.parse(start.as_of)).toBeGreaterThanOrEqual(asked);
      expect(text).toContain('event: done');
      expect(upstream.served()).toBeGreaterThan(listed);
    } finally {
      await bff.close();
    }
  });
});
