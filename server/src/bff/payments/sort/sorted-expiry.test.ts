import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generatedUpstream, generatedWorld } from '../../../upstream/testing/generated-upstream.ts';
import { InProcessDispatcher } from '../../../upstream/testing/in-process-dispatcher.ts';
import { createTestBff, signInOn } from '../../testing/bff-harness.ts';
import { checkProperty, compare, compareIds, idKey, parseExact } from '../../testing/properties.ts';

/**
 * A sorted view whose walk meets a cursor the upstream refuses (it outlived the upstream's cursor lifetime between
 * two pages: the clock jumps once, mid-walk, past the lifetime) walks again from fresh positions and answers the
 * whole view, sorted, each row once: not `cursor_expired`.
 */

const CURSOR_TTL_MS = 60_000;

describe('a sorted view whose walk meets an expired cursor', () => {
  it('walks the view again and answers it whole, sorted, each row once', async () => {
    let restarted = 0;
    await checkProperty(
      fc.asyncProperty(
        generatedWorld(),
        fc.integer({ min: 2, max: 6 }),
        fc.integer({ min: 7, max: 100 }),
        async (world, jumpAt, limit) => {
          let clock = 0;
          const upstream = generatedUpstream(world, undefined, {
            now: () => clock,
            cursorTtlMs: CURSOR_TTL_MS,
          });
          let requests = 0;
          const bff = await createTestBff({
            upstream: {
              baseUrl: 'http://generated.test/v1',
              credentials: upstream.credentials,
              dispatcher: new InProcessDispatcher(async (request) => {
                requests += 1;
                // once, mid-walk: every cursor issued so far is now too old
                clock += requests === jumpAt ? CURSOR_TTL_MS : 1;
                return upstream.app.fetch(request);
              }),
            },
            companies: world.companies.map(({ id, name, parent_id }) => ({ id, name, parent_id })),
            settings: {
              PAYMENTS_LIST_ORDER: world.order,
              PAYMENTS_TIME_ZONE: 'UTC',
              PAYMENTS_AMOUNT_UNIT: 'minor',
            },
          });
          try {
            const cookie = await signInOn(bff.app, 'demo');
            const root = world.companies[0]?.id as string;
            const query = new URLSearchParams({ sort: 'status:asc', limit: String(limit), group: 'true' });
            const rows: { company: string; id: unknown; status: string }[] = [];
            for (;;) {
              const response = await bff.app.request(`/api/payments?${query}`, {
                headers: { 'X-CSRF': '1', cookie, 'X-Company-Id': root },
              });
              const text = await response.text();
              expect(response.status, text).toBe(200);
              const page = parseExact(text) as {
                data: { id: unknown; status: string }[];
                company_ids: string[];
                next_cursor: string | null;
              };
              for (const [i, row] of page.data.entries())
                rows.push({ company: page.company_ids[i] as string, id: row.id, status: row.status });
              if (page.next_cursor === null) break;
              query.set('cursor', page.next_cursor);
            }
            if (upstream.expired() > 0) restarted += 1;
            const everyRow = world.companies
              .flatMap((company) => company.rows.map((row) => `${company.id} ${idKey(row.record.id)}`))
              .sort();
            expect(rows.map((row) => `${row.company} ${idKey(row.id)}`).sort()).toEqual(everyRow);
            const sorted = rows.toSorted(
              (a, b) =>
                compare(a.status, b.status) || compareIds(a.id, b.id) || compare(a.company, b.company),
            );
            expect(rows).toEqual(sorted);
          } finally {
            await bff.close();
          }
        },
      ),
      30,
    );
    // the clock's jump did expire a cursor the walk went on to use in some of the generated worlds
    expect(restarted).toBeGreaterThan(0);
  }, 300_000);
});
