import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createEmbeddedState, createLeases, type SharedState } from '../../../shared-state/index.ts';
import { withExpiringCursors } from '../../../upstream/testing/expiring-cursors.ts';
import {
  type GeneratedWorld,
  generatedUpstream,
  generatedWorld,
  listed,
} from '../../../upstream/testing/generated-upstream.ts';
import { InProcessDispatcher } from '../../../upstream/testing/in-process-dispatcher.ts';
import { createTestBff, signInOn } from '../../testing/bff-harness.ts';
import { checkProperty, parseExact } from '../../testing/properties.ts';
import { REPLANS } from '../walk/checkpoints.ts';
import { WALK_PAGE_SIZE } from '../walk/walk-plan.ts';

/**
 * A list whose upstream cursors are refused between two pages (the user paused longer than the upstream keeps
 * them) goes on from the last row it showed: the rows seen equal one uninterrupted walk, computed here from the
 * generated data, never by the BFF's own functions.
 */

interface Choice {
  company: number;
  group: boolean;
  status?: string | undefined;
  dateTo?: string | undefined;
  limit: number;
}

/** A row's identity: its company and its id as exact text. */
const keyOf = (company: string, id: unknown) =>
  `${company} ${typeof id === 'string' ? JSON.stringify(id) : String((id as { rawJSON?: string }).rawJSON ?? id)}`;

const hour = (h: number) => new Date(Date.UTC(2025, 0, 1) + h * 3_600_000).toISOString().slice(0, 19);

function members(world: GeneratedWorld, choice: Choice): string[] {
  const head = world.companies[choice.company]?.id as string;
  if (!choice.group) return [head];
  const inside = new Set([head]);
  for (const company of world.companies)
    if (company.parent_id && inside.has(company.parent_id)) inside.add(company.id);
  return world.companies.filter((c) => inside.has(c.id)).map((c) => c.id);
}

/** The oracle: the view's rows in list order; ties across companies by the group's order, then each list's. */
function expected(world: GeneratedWorld, choice: Choice): string[] {
  const rows = members(world, choice).flatMap((company, rank) =>
    listed(world, company, { ...(choice.status ? { status: choice.status } : {}) })
      .filter((row) => choice.dateTo === undefined || (row.record.created_at as string) <= choice.dateTo)
      .map((row, place) => ({ company, rank, place, row })),
  );
  const sign = world.order === 'created_at_desc' ? -1 : 1;
  rows.sort((a, b) => sign * (a.row.at - b.row.at) || a.rank - b.rank || a.place - b.place);
  return rows.map((r) => keyOf(r.company, r.row.record.id));
}

async function bffOver(world: GeneratedWorld, sharedState?: SharedState) {
  const upstream = withExpiringCursors(generatedUpstream(world).app.fetch, { bytes: 24 });
  const bff = await createTestBff({
    upstream: {
      baseUrl: 'http://generated.test/v1',
      credentials: { secretId: 'gen', secretPassword: 'gen-pw' },
      dispatcher: new InProcessDispatcher(upstream.fetch),
    },
    companies: world.companies.map(({ id, name, parent_id }) => ({ id, name, parent_id })),
    settings: {
      PAYMENTS_LIST_ORDER: world.order,
      PAYMENTS_TIME_ZONE: 'UTC',
      PAYMENTS_AMOUNT_UNIT: 'minor',
      WALKS_PER_USER: 1,
    },
    parts: sharedState ? { sharedState } : {},
  });
  const cookie = await signInOn(bff.app);
  /** One page of the view: its status, its rows' keys, its next cursor, its problem code. */
  const page = async (choice: Choice, cursor: string | null) => {
    const company = world.companies[choice.company]?.id as string;
    const query = new URLSearchParams({ limit: String(choice.limit) });
    if (choice.group) query.set('group', 'true');
    if (choice.status) query.set('status', choice.status);
    if (choice.dateTo) query.set('date_to', choice.dateTo);
    if (cursor) query.set('cursor', cursor);
    const response = await bff.app.request(`/api/payments?${query}`, {
      headers: { 'X-CSRF': '1', cookie, 'X-Company-Id': company },
    });
    const body = parseExact(await response.text()) as {
      data?: { id: unknown }[];
      company_ids?: string[];
      next_cursor?: string | null;
      code?: string;
    };
    const rows = (body.data ?? []).map((row, i) => keyOf(body.company_ids?.[i] ?? company, row.id));
    return { status: response.status, rows, next: body.next_cursor ?? null, code: body.code };
  };
  return { bff, upstream, page };
}

const choiceFor = (world: GeneratedWorld) =>
  fc.record({
    company: fc.integer({ min: 0, max: world.companies.length - 1 }),
    group: fc.boolean(),
    status: fc.option(fc.constantFrom('COMPLETED', 'AWAITING'), { nil: undefined }),
    dateTo: fc.option(
      fc.integer({ min: 0, max: 30 }).map((h) => hour(h)),
      { nil: undefined },
    ),
    limit: fc.integer({ min: 1, max: 40 }),
  });

describe('a list whose upstream cursors expired between two pages', () => {
  it('goes on from the last row it showed: every row once, in order, as one uninterrupted walk', async () => {
    let refused = 0;
    await checkProperty(
      fc.asyncProperty(
        generatedWorld().chain((world) =>
          fc.tuple(
            fc.constant(world),
            choiceFor(world),
            fc.array(fc.boolean(), { minLength: 60, maxLength: 60 }),
          ),
        ),
        async ([world, choice, pauses]) => {
          const { bff, upstream, page } = await bffOver(world);
          try {
            const seen: string[] = [];
            let cursor: string | null = null;
            for (let pages = 0; pages < 2_000; pages++) {
              const next = await page(choice, cursor);
              expect(next.status, next.code).toBe(200);
              seen.push(...next.rows);
              cursor = next.next;
              if (!cursor) break;
              // The user pauses: every upstream cursor issued so far is refused from now on.
              if (pauses[pages % pauses.length]) upstream.expire();
            }
            expect(seen).toEqual(expected(world, choice));
            refused += upstream.refusals();
          } finally {
            await bff.close();
          }
        },
      ),
      40,
    );
    // The property met refused cursors, not only lists that never needed one.
    expect(refused).toBeGreaterThan(0);
  }, 300_000);

  it('goes on for a group whose cursors all expire after every page', async () => {
    const world = fc.sample(generatedWorld(), { seed: 7, numRuns: 1 })[0] as GeneratedWorld;
    world.order = 'created_at_desc';
    world.fill = 'full';
    for (const company of world.companies) {
      company.rows.length = 0;
    }
    const base = Date.UTC(2025, 0, 1) / 1000;
    world.companies.forEach((company, c) => {
      for (let i = 0; i < 150; i++) {
        const at = base + (300 - 2 * i) * 60 + c;
        company.rows.push({
          record: {
            id: `${company.id}-${i}`,
            created_at: new Date(at * 1000).toISOString().slice(0, 19),
            status: 'COMPLETED',
            amount: i,
            currency: 'EUR',
          },
          at,
          tie: 0,
        });
      }
    });
    const choice: Choice = { company: 0, group: true, limit: 25 };
    const { bff, upstream, page } = await bffOver(world);
    try {
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const next = await page(choice, cursor);
        expect(next.status, next.code).toBe(200);
        seen.push(...next.rows);
        cursor = next.next;
        pages += 1;
        upstream.expire();
      } while (cursor);
      expect(seen).toEqual(expected(world, choice));
      // Each page after the first met refused cursors, and went on.
      expect(upstream.refusals()).toBeGreaterThanOrEqual(pages - 2);
    } finally {
      await bff.close();
    }
  }, 120_000);

  it('costs the pages from the top down to the row it showed, and a few refused cursors', async () => {
    const world = singleCompany(5, 1_000);
    const choice: Choice = { company: 0, group: false, limit: 25 };
    const { bff, upstream, page } = await bffOver(world);
    try {
      const seen: string[] = [];
      let cursor: string | null = null;
      for (let pages = 0; pages < 20; pages++) {
        const next = await page(choice, cursor);
        seen.push(...next.rows);
        cursor = next.next;
      }
      expect(seen).toHaveLength(500);
      upstream.expire();
      const before = upstream.requests();
      const next = await page(choice, cursor);
      expect(next.rows).toEqual(expected(world, choice).slice(500, 525));
      // The refused cursor, the remembered positions tried (each refused: as old), and 100-row pages down to row
      // 500 and the one holding it.
      const spent = upstream.requests() - before;
      expect(spent).toBeLessThanOrEqual(1 + REPLANS + 500 / WALK_PAGE_SIZE + 1);
    } finally {
      await bff.close();
    }
  }, 60_000);

  it("finds its row again in one of the user's walk places: none free is a retry, and then it goes on", async () => {
    const world = singleCompany(5, 300);
    const choice: Choice = { company: 0, group: false, limit: 25 };
    const sharedState = createEmbeddedState();
    const { bff, upstream, page } = await bffOver(world, sharedState);
    try {
      const first = await page(choice, null);
      upstream.expire();
      // The user's one walk place is taken (a download, say).
      const download = await createLeases(sharedState).enter('walks:demo', 1);
      expect(download).not.toBeNull();
      const before = upstream.requests();
      const busy = await page(choice, first.next);
      expect(busy).toMatchObject({ status: 503, code: 'rate_limited' });
      // Only the refused cursor was sent: no walk without a place.
      expect(upstream.requests() - before).toBe(1);
      download?.leave();
      const next = await page(choice, first.next);
      expect(next.status).toBe(200);
      expect([...first.rows, ...next.rows]).toEqual(expected(world, choice).slice(0, 50));
    } finally {
      await bff.close();
      await sharedState.close();
    }
  }, 60_000);

  it('answers cursor_expired when the row it stood at is gone, and a first page then starts over', async () => {
    const world = singleCompany(3, 60);
    const company = world.companies[0] as GeneratedWorld['companies'][number];
    const choice: Choice = { company: 0, group: false, limit: 10 };
    const { bff, upstream, page } = await bffOver(world);
    try {
      const first = await page(choice, null);
      const second = await page(choice, first.next);
      expect(second.status).toBe(200);
      upstream.expire();
      // The rows around where the list stands are deleted upstream: neither the last shown nor the next remain.
      company.rows.splice(17, 6);
      const third = await page(choice, second.next);
      expect(third).toMatchObject({ status: 400, code: 'cursor_expired' });
      const again = await page(choice, null);
      expect(again.status).toBe(200);
    } finally {
      await bff.close();
    }
  }, 60_000);
});

/** One company's list of `rows` payments a minute apart, newest first, full pages. */
function singleCompany(seed: number, rows: number): GeneratedWorld {
  const world = fc.sample(generatedWorld(), { seed, numRuns: 1 })[0] as GeneratedWorld;
  world.order = 'created_at_desc';
  world.fill = 'full';
  const company = world.companies[0] as GeneratedWorld['companies'][number];
  company.rows.length = 0;
  const base = Date.UTC(2025, 0, 1) / 1000;
  for (let i = 0; i < rows; i++) {
    const at = base + (2 * rows - i) * 60;
    const created = new Date(at * 1000).toISOString().slice(0, 19);
    company.rows.push({
      record: { id: `p${i}`, created_at: created, status: 'COMPLETED', amount: 1, currency: 'EUR' },
      at,
      tie: 0,
    });
  }
  return world;
}
