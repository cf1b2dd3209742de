import { SORTS, type Sort } from '@payments/shared';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type GeneratedRow,
  type GeneratedWorld,
  generatedUpstream,
  generatedWorld,
  listed,
} from '../upstream/testing/generated-upstream.ts';
import { InProcessDispatcher } from '../upstream/testing/in-process-dispatcher.ts';
import { createTestBff, signInOn } from './testing/bff-harness.ts';
import { checkProperty, compare, compareIds, idKey, parseExact } from './testing/properties.ts';

/**
 * A sorted view against upstreams generated from what the spec allows: for any period of any company or group, in
 * any order but the upstream's own, its pages hold the period's rows sorted here (an oracle of its own, on the
 * generated data: exact integers, never the BFF's comparator), each row once, ties broken by id then company.
 */

const keyOf = (company: string, id: unknown) => `${company} ${idKey(id)}`;

const hour = (h: number) => new Date(Date.UTC(2025, 0, 1) + h * 3_600_000).toISOString().slice(0, 19);

function members(world: GeneratedWorld, head: string, group: boolean): string[] {
  if (!group) return [head];
  const inside = new Set([head]);
  for (const company of world.companies)
    if (company.parent_id && inside.has(company.parent_id)) inside.add(company.id);
  return world.companies.filter((c) => inside.has(c.id)).map((c) => c.id);
}

/** The oracle: the period's rows of every member, sorted by the generated values. */
function expected(world: GeneratedWorld, choice: Choice) {
  const [field, way] = choice.sort.split(':') as [string, 'asc' | 'desc'];
  const sign = way === 'asc' ? 1 : -1;
  const rows = members(world, world.companies[choice.company]?.id as string, choice.group).flatMap(
    (company) =>
      listed(world, company, { date_from: choice.dateFrom })
        .filter((row) => choice.dateTo === undefined || (row.record.created_at as string) <= choice.dateTo)
        .map((row) => ({ company, row })),
  );
  const value = (row: GeneratedRow) => {
    const r = row.record;
    if (field === 'created_at') return [row.at];
    // Money within a currency: currencies alphabetically whichever way amounts run; the minor units are exact.
    if (field === 'amount') return [r.currency as string, sign * (r.amount as number)];
    return [r[field] as string];
  };
  rows.sort((a, b) => {
    const [x0, x1] = value(a.row);
    const [y0, y1] = value(b.row);
    const first = field === 'amount' ? compare(x0, y0) : sign * compare(x0, y0);
    return (
      first ||
      (field === 'amount' ? compare(x1, y1) : 0) ||
      compareIds(a.row.record.id, b.row.record.id) ||
      compare(a.company, b.company)
    );
  });
  return rows.map(({ company, row }) => keyOf(company, row.record.id));
}

interface Choice {
  company: number;
  group: boolean;
  sort: Sort;
  dateFrom?: string | undefined;
  dateTo?: string | undefined;
  limit: number;
}

const choiceOf = (world: GeneratedWorld) =>
  fc
    .record({
      company: fc.integer({ min: 0, max: world.companies.length - 1 }),
      group: fc.boolean(),
      sort: fc.constantFrom(
        ...SORTS.filter(
          (s) => s !== (world.order === 'created_at_desc' ? 'created_at:desc' : 'created_at:asc'),
        ),
      ),
      dateFrom: fc.option(fc.integer({ min: 0, max: 30 }).map(hour), { nil: undefined }),
      dateTo: fc.option(fc.integer({ min: 0, max: 30 }).map(hour), { nil: undefined }),
      limit: fc.integer({ min: 1, max: 100 }),
    })
    .filter((c) => c.dateFrom === undefined || c.dateTo === undefined || c.dateFrom <= c.dateTo);

describe('a sorted view of any upstream the spec allows', () => {
  it("equals the period's rows sorted here, each row once, ties by id, across companies and pages", async () => {
    await checkProperty(
      fc.asyncProperty(
        generatedWorld().chain((world) =>
          fc.tuple(fc.constant(world), fc.array(choiceOf(world), { minLength: 1, maxLength: 3 })),
        ),
        async ([world, choices]) => {
          const upstream = generatedUpstream(world);
          const bff = await createTestBff({
            upstream: {
              baseUrl: 'http://generated.test/v1',
              credentials: upstream.credentials,
              dispatcher: new InProcessDispatcher((request) => upstream.app.fetch(request)),
            },
            companies: world.companies.map(({ id, name, parent_id }) => ({ id, name, parent_id })),
            settings: {
              PAYMENTS_LIST_ORDER: world.order,
              PAYMENTS_TIME_ZONE: 'UTC',
              PAYMENTS_AMOUNT_UNIT: 'minor',
            },
          });
          try {
            const cookie = await signInOn(bff.app);
            for (const choice of choices) {
              const company = world.companies[choice.company]?.id as string;
              const seen: string[] = [];
              let cursor: string | null = null;
              let total: number | undefined;
              do {
                const query = new URLSearchParams({ sort: choice.sort, limit: String(choice.limit) });
                if (choice.group) query.set('group', 'true');
                if (choice.dateFrom) query.set('date_from', choice.dateFrom);
                if (choice.dateTo) query.set('date_to', choice.dateTo);
                if (cursor) query.set('cursor', cursor);
                const response = await bff.app.request(`/api/payments?${query}`, {
                  headers: { 'X-CSRF': '1', cookie, 'X-Company-Id': company },
                });
                const text = await response.text();
                expect(response.status, text).toBe(200);
                const page = parseExact(text) as {
                  data: { id: unknown }[];
                  company_ids?: string[];
                  next_cursor: string | null;
                  total: number;
                };
                total = page.total;
                for (const [i, row] of page.data.entries())
                  seen.push(keyOf(page.company_ids?.[i] ?? company, row.id));
                cursor = page.next_cursor;
              } while (cursor);
              const want = expected(world, choice);
              expect(seen).toEqual(want);
              expect(total).toBe(want.length);
            }
          } finally {
            await bff.close();
          }
        },
      ),
      25,
    );
  }, 120_000);
});
