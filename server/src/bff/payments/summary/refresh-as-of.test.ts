import { summarySchema } from '@payments/shared';
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
import { checkProperty } from '../../testing/properties.ts';
import { FAST_TEST_COST } from '../../testing/test-costs.ts';

/**
 * `as_of` is a promise: every row a figure counts was read at or after it, and a Refresh asked at T answers
 * with figures read from T on. Two users Refresh the same question in any interleaving while PENDING payments
 * settle; the upstream's clock is the test's, moved by every request and by pauses between the Refreshes.
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
    step: fc.integer({ min: 0, max: 2_000 }),
    latency: fc.integer({ min: 0, max: 30 }),
    // Each Refresh: whose (demo or colleague, both seeing every company), after how many upstream requests
    // served since the one before, after how long a pause on the clock.
    asks: fc.array(
      fc.record({
        user: fc.constantFrom<0 | 1>(0, 1),
        after: fc.integer({ min: 1, max: 4 }),
        pause: fc.integer({ min: 0, max: 30_000 }),
      }),
      { minLength: 2, maxLength: 4 },
    ),
  });
});

/**
 * Whether `byStatus` can be the statuses of every row read at some times in [asked, answered]: a payment that
 * settled before `asked` counts settled, one that settled after `answered` PENDING, and one that settled between
 * either way. With nothing settling meanwhile, this is the truth at `asked` exactly.
 */
function readable(
  world: GeneratedWorld,
  settlements: readonly Settlement[],
  asked: number,
  answered: number,
  byStatus: Map<string, number>,
) {
  const base = new Map<string, number>();
  const either = new Map<string, number>();
  const add = (map: Map<string, number>, status: string) => map.set(status, (map.get(status) ?? 0) + 1);
  for (const company of world.companies)
    for (const row of company.rows) {
      const settles = settlements.find((s) => s.company === company.id && s.tie === row.tie);
      if (!settles) add(base, row.record.status as string);
      else if (settles.at <= asked) add(base, settles.to);
      else if (settles.at > answered) add(base, 'PENDING');
      else add(either, settles.to);
    }
  let pendingExtra = 0;
  for (const status of new Set([...base.keys(), ...either.keys(), ...byStatus.keys()])) {
    if (status === 'PENDING') continue;
    const extra = (byStatus.get(status) ?? 0) - (base.get(status) ?? 0);
    if (extra < 0 || extra > (either.get(status) ?? 0)) return false;
    pendingExtra += (either.get(status) ?? 0) - extra;
  }
  return (byStatus.get('PENDING') ?? 0) === (base.get('PENDING') ?? 0) + pendingExtra;
}

describe('a Refresh as of when it was asked', () => {
  it("equals the payments as read at or after it was asked, for any pause, settlement and two users' interleaving", async () => {
    const passwordHash = await hashPassword(PASSWORD, { cost: FAST_TEST_COST });
    const users = createUserStore([
      { username: 'demo', passwordHash, companies: '*', includeDescendants: true },
      { username: 'colleague', passwordHash, companies: '*', includeDescendants: true },
    ]);
    await checkProperty(
      fc.asyncProperty(scenario, async ({ world, settlements, step, latency, asks }) => {
        let clock = T0;
        const now = () => clock;
        const upstream = generatedUpstream(world, undefined, { now, settlements });
        const bff = await createTestBff({
          upstream: {
            baseUrl: 'http://generated.test/v1',
            credentials: upstream.credentials,
            // Every request the upstream answers takes `step` on its clock (rows are read at distinct times) and
            // `latency` turns of the event loop (other requests go on meanwhile).
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
          const answers: Promise<{ asked: number; answered: number; status: number; body: unknown }>[] = [];
          let open = 0;
          for (const ask of asks) {
            const from = upstream.served();
            // Waits for `after` requests, or for every Refresh asked so far to be answered.
            while (upstream.served() < from + ask.after && open > 0)
              await new Promise((resolve) => setImmediate(resolve));
            clock += ask.pause;
            const asked = clock;
            open += 1;
            answers.push(
              Promise.resolve(
                bff.app.request('/api/payments/summary?group=true&fresh=true', {
                  headers: { 'X-CSRF': '1', cookie: cookies[ask.user] as string, 'X-Company-Id': root },
                }),
              ).then(async (response) => {
                const answered = clock;
                open -= 1;
                return { asked, answered, status: response.status, body: await response.json() };
              }),
            );
          }
          for (const answer of await Promise.all(answers)) {
            // A newer Refresh of the same user's replaces the older one: that one has nothing to promise.
            if (answer.status === 409) continue;
            expect(answer.status).toBe(200);
            const summary = summarySchema.parse(answer.body);
            expect(Date.parse(summary.as_of as string)).toBeGreaterThanOrEqual(answer.asked);
            const byStatus = new Map(summary.by_status.map((s) => [s.status as string, s.count]));
            const rows = world.companies.reduce((sum, company) => sum + company.rows.length, 0);
            expect(summary.count).toBe(rows);
            expect(readable(world, settlements, answer.asked, answer.answered, byStatus)).toBe(true);
          }
        } finally {
          await bff.close();
        }
      }),
      40,
    );
  });
});
