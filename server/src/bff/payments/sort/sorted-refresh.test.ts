import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type GeneratedWorld,
  generatedUpstream,
  generatedWorld,
  type Settlement,
} from '../../../upstream/testing/generated-upstream.ts';
import { InProcessDispatcher } from '../../../upstream/testing/in-process-dispatcher.ts';
import { createUserStore, hashPassword } from '../../auth/index.ts';
import { createTestBff, PASSWORD, signInOn, testAuthenticator } from '../../testing/bff-harness.ts';
import { checkProperty, compare, compareIds, idKey, parseExact } from '../../testing/properties.ts';
import { FAST_TEST_COST } from '../../testing/test-costs.ts';

/**
 * A sorted view's `as_of` is a promise too: every row it holds was read at or after it, and a Refresh asked at T
 * answers with rows read from T on. Two users ask for a group's view sorted by status (the field that changes), as
 * Refreshes or plain asks, in any interleaving while PENDING payments settle; each scrolls its view to the end.
 * The upstream's clock is the test's, moved by every request and by pauses between the asks.
 */

const T0 = Date.UTC(2026, 0, 1);

const scenario = generatedWorld().chain((world) => {
  const rows = world.companies.flatMap((company) => company.rows.map((row) => ({ company, row })));
  return fc.record({
    world: fc.constant(world),
    settlements: fc.subarray(rows, { maxLength: Math.min(40, rows.length) }).chain((chosen) =>
      fc.tuple(
        ...chosen.map(({ company, row }) =>
          fc.record({
            company: fc.constant(company.id),
            tie: fc.constant(row.tie),
            at: fc.integer({ min: 0, max: 120_000 }).map((ms) => T0 + ms),
            to: fc.constantFrom('COMPLETED', 'FAILED'),
          }),
        ),
      ),
    ),
    sort: fc.constantFrom('status:asc', 'status:desc'),
    step: fc.integer({ min: 0, max: 2_000 }),
    latency: fc.integer({ min: 0, max: 30 }),
    limit: fc.integer({ min: 7, max: 100 }),
    // Each ask: whose (demo or colleague, both seeing every company), a Refresh or not, after how many upstream
    // requests served since the one before, after how long a pause on the clock.
    asks: fc.array(
      fc.record({
        user: fc.constantFrom<0 | 1>(0, 1),
        fresh: fc.boolean(),
        after: fc.integer({ min: 1, max: 4 }),
        pause: fc.integer({ min: 0, max: 30_000 }),
      }),
      { minLength: 2, maxLength: 4 },
    ),
  });
});

interface Shown {
  company: string;
  id: unknown;
  status: string;
}

/** The statuses a row may show when read at some time in [from, to]: settled, PENDING, or either in between. */
function statusesWithin(
  world: GeneratedWorld,
  settlements: readonly Settlement[],
  row: Shown,
  from: number,
  to: number,
): string[] {
  const company = world.companies.find((c) => c.id === row.company);
  const generated = company?.rows.find((r) => idKey(r.record.id) === idKey(row.id));
  if (!generated) return [];
  const settles = settlements.find((s) => s.company === row.company && s.tie === generated.tie);
  if (!settles) return [generated.record.status as string];
  if (settles.at <= from) return [settles.to];
  if (settles.at > to) return ['PENDING'];
  return [settles.to, 'PENDING'];
}

describe('a sorted view Refreshed', () => {
  it("holds the rows as read at or after it was asked, sorted, each once, for any two users' interleaving", async () => {
    const passwordHash = await hashPassword(PASSWORD, { cost: FAST_TEST_COST });
    const users = createUserStore([
      { username: 'demo', passwordHash, companies: '*', includeDescendants: true },
      { username: 'colleague', passwordHash, companies: '*', includeDescendants: true },
    ]);
    await checkProperty(
      fc.asyncProperty(scenario, async ({ world, settlements, sort, step, latency, limit, asks }) => {
        let clock = T0;
        const now = () => clock;
        const upstream = generatedUpstream(world, undefined, { now, settlements });
        const bff = await createTestBff({
          upstream: {
            baseUrl: 'http://generated.test/v1',
            credentials: upstream.credentials,
            dispatcher: new InProcessDispatcher(async (request) => {
              for (let turn = 0; turn < latency; turn++)
                await new Promise((resolve) => setImmediate(resolve));
              clock += step;
              return upstream.app.fetch(request);
            }),
          },
          companies: world.companies.map(({ id, name, parent_id }) => ({ id, name, parent_id })),
          settings: {
            PAYMENTS_LIST_ORDER: world.order,
            PAYMENTS_TIME_ZONE: 'UTC',
            PAYMENTS_AMOUNT_UNIT: 'minor',
          },
          parts: { now, users, authenticator: testAuthenticator(users) },
        });
        try {
          const cookies = [await signInOn(bff.app, 'demo'), await signInOn(bff.app, 'colleague')];
          const root = world.companies[0]?.id as string;
          const ask = (user: 0 | 1, query: URLSearchParams) =>
            bff.app.request(`/api/payments?${query}`, {
              headers: { 'X-CSRF': '1', cookie: cookies[user] as string, 'X-Company-Id': root },
            });
          /** The whole sorted view: its first page, then every next page from its cursors. */
          const scroll = async (user: 0 | 1, fresh: boolean) => {
            const query = new URLSearchParams({ sort, limit: String(limit), group: 'true' });
            if (fresh) query.set('fresh', 'true');
            const first = await ask(user, query);
            const answered = clock;
            const rows: Shown[] = [];
            let text = await first.text();
            expect(first.status, text).toBe(200);
            let asOf: string | undefined;
            for (;;) {
              const page = parseExact(text) as {
                data: { id: unknown; status: string }[];
                company_ids: string[];
                next_cursor: string | null;
                as_of: string;
              };
              asOf ??= page.as_of;
              // Every page of one scroll is of the same snapshot.
              expect(page.as_of).toBe(asOf);
              for (const [i, row] of page.data.entries())
                rows.push({ company: page.company_ids[i] as string, id: row.id, status: row.status });
              if (page.next_cursor === null) break;
              query.delete('fresh');
              query.set('cursor', page.next_cursor);
              const next = await ask(user, query);
              text = await next.text();
              expect(next.status, text).toBe(200);
            }
            return { answered, asOf: Date.parse(asOf as string), rows };
          };
          const answers: Promise<{ asked: number; fresh: boolean } & Awaited<ReturnType<typeof scroll>>>[] =
            [];
          let open = 0;
          for (const { user, fresh, after, pause } of asks) {
            const from = upstream.served();
            while (upstream.served() < from + after && open > 0)
              await new Promise((resolve) => setImmediate(resolve));
            clock += pause;
            const asked = clock;
            open += 1;
            answers.push(
              scroll(user, fresh).then((scrolled) => {
                open -= 1;
                return { asked, fresh, ...scrolled };
              }),
            );
          }
          const everyRow = world.companies
            .flatMap((company) => company.rows.map((row) => `${company.id} ${idKey(row.record.id)}`))
            .sort();
          const sign = sort === 'status:asc' ? 1 : -1;
          for (const answer of await Promise.all(answers)) {
            expect(answer.asOf).toBeLessThanOrEqual(answer.answered);
            if (answer.fresh) expect(answer.asOf).toBeGreaterThanOrEqual(answer.asked);
            // Each row once, every row of the group.
            expect(answer.rows.map((row) => `${row.company} ${idKey(row.id)}`).sort()).toEqual(everyRow);
            // Each row as it was at some time from as_of (at or after the Refresh) to the answer.
            for (const row of answer.rows)
              expect(statusesWithin(world, settlements, row, answer.asOf, answer.answered)).toContain(
                row.status,
              );
            // Sorted by the statuses shown, ties by id then company.
            const sorted = answer.rows.toSorted(
              (a, b) =>
                sign * compare(a.status, b.status) || compareIds(a.id, b.id) || compare(a.company, b.company),
            );
            expect(answer.rows).toEqual(sorted);
          }
        } finally {
          await bff.close();
        }
      }),
      40,
    );
  }, 300_000);
});
