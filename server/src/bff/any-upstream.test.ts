import { type Summary, summarySchema } from '@payments/shared';
import { parse as parseCsv } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createEmbeddedState, type SharedState } from '../shared-state/index.ts';
import {
  type GeneratedWorld,
  generatedUpstream,
  generatedWorld,
  listed,
} from '../upstream/testing/generated-upstream.ts';
import { InProcessDispatcher } from '../upstream/testing/in-process-dispatcher.ts';
import { createCheckpoints } from './payments/walk/checkpoints.ts';
import { createTestBff, signInOn } from './testing/bff-harness.ts';
import { checkProperty, parseExact } from './testing/properties.ts';

/**
 * The BFF against upstreams generated from what the spec allows (generated-upstream.ts): for every variation its
 * list walk, group walk, summary and "All columns" export equal an oracle computed here from the generated data,
 * never by the BFF's own functions.
 */

type Key = string;
/** A row's identity as the tests compare it: its company and its id as exact text. */
const keyOf = (company: string, id: unknown): Key =>
  `${company} ${typeof id === 'string' ? JSON.stringify(id) : String((id as { rawJSON?: string }).rawJSON ?? id)}`;

interface ViewChoice {
  company: number;
  group: boolean;
  status?: string | undefined;
  dateFrom?: string | undefined;
  dateTo?: string | undefined;
  limit: number;
}

const view = (world: GeneratedWorld) =>
  fc.record({
    company: fc.integer({ min: 0, max: world.companies.length - 1 }),
    group: fc.boolean(),
    status: fc.option(fc.constantFrom('COMPLETED', 'AWAITING'), { nil: undefined }),
    dateFrom: fc.option(
      fc.integer({ min: 0, max: 30 }).map((h) => hour(h)),
      { nil: undefined },
    ),
    dateTo: fc.option(
      fc.integer({ min: 0, max: 30 }).map((h) => hour(h)),
      { nil: undefined },
    ),
    limit: fc.integer({ min: 1, max: 100 }),
  });
const hour = (h: number) => new Date(Date.UTC(2025, 0, 1) + h * 3_600_000).toISOString().slice(0, 19);

/** The companies a view holds, in the group's order (the tree's), with their rows in the upstream's order. */
function members(world: GeneratedWorld, choice: ViewChoice): string[] {
  const head = world.companies[choice.company]?.id as string;
  if (!choice.group) return [head];
  const inside = new Set([head]);
  for (const company of world.companies)
    if (company.parent_id && inside.has(company.parent_id)) inside.add(company.id);
  return world.companies.filter((c) => inside.has(c.id)).map((c) => c.id);
}

/** The oracle: the view's rows in list order; ties across companies by the group's order, then each list's. */
function expectedRows(world: GeneratedWorld, choice: ViewChoice) {
  const rows = members(world, choice).flatMap((company, rank) =>
    listed(world, company, { status: choice.status, date_from: choice.dateFrom })
      .filter((row) => choice.dateTo === undefined || (row.record.created_at as string) <= choice.dateTo)
      .map((row, place) => ({ company, rank, place, row })),
  );
  const sign = world.order === 'created_at_desc' ? -1 : 1;
  rows.sort((a, b) => sign * (a.row.at - b.row.at) || a.rank - b.rank || a.place - b.place);
  return rows;
}

function queryOf(choice: ViewChoice, extra: Record<string, string> = {}) {
  const query = new URLSearchParams(extra);
  if (choice.group) query.set('group', 'true');
  if (choice.status) query.set('status', choice.status);
  if (choice.dateFrom) query.set('date_from', choice.dateFrom);
  if (choice.dateTo) query.set('date_to', choice.dateTo);
  return query;
}

const idInFile = (id: unknown) =>
  typeof id === 'string' ? id : String((id as { rawJSON?: string }).rawJSON ?? id);

const validRange = (choice: ViewChoice) =>
  choice.dateFrom === undefined || choice.dateTo === undefined || choice.dateFrom <= choice.dateTo;

async function bffOver(world: GeneratedWorld, sharedState?: SharedState) {
  const upstream = generatedUpstream(world);
  const bff = await createTestBff({
    upstream: {
      baseUrl: 'http://generated.test/v1',
      credentials: upstream.credentials,
      dispatcher: new InProcessDispatcher((request) => upstream.app.fetch(request)),
    },
    companies: world.companies.map(({ id, name, parent_id }) => ({ id, name, parent_id })),
    settings: { PAYMENTS_LIST_ORDER: world.order, PAYMENTS_TIME_ZONE: 'UTC', PAYMENTS_AMOUNT_UNIT: 'minor' },
    parts: sharedState ? { sharedState } : {},
  });
  const cookie = await signInOn(bff.app);
  const get = async (path: string, company: string) =>
    bff.app.request(path, { headers: { 'X-CSRF': '1', cookie, 'X-Company-Id': company } });
  return { bff, upstream, get };
}

/** Walks the BFF's list of a view page by page: each row's company and exact id, in order. */
async function walkList(
  get: (path: string, company: string) => Promise<Response>,
  world: GeneratedWorld,
  choice: ViewChoice,
) {
  const company = world.companies[choice.company]?.id as string;
  const seen: Key[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 2_000; pages++) {
    const query = queryOf(choice, { limit: String(choice.limit) });
    if (cursor) query.set('cursor', cursor);
    const response = await get(`/api/payments?${query}`, company);
    const text = await response.text();
    expect(response.status, text).toBe(200);
    const page = parseExact(text) as {
      data: { id: unknown }[];
      company_ids?: string[];
      next_cursor: string | null;
      has_more: boolean;
    };
    // An empty page only at the end of the list.
    if (page.data.length === 0) expect(page.has_more).toBe(false);
    for (const [i, row] of page.data.entries()) seen.push(keyOf(page.company_ids?.[i] ?? company, row.id));
    cursor = page.next_cursor;
    if (!cursor) return seen;
  }
  throw new Error('the list never ended');
}

/** Exact totals in minor units per currency, and counts per status, of rows. */
function figures(rows: ReturnType<typeof expectedRows>) {
  const totals = new Map<string, bigint>();
  const statuses = new Map<string, number>();
  for (const { row } of rows) {
    const currency = row.record.currency as string;
    totals.set(currency, (totals.get(currency) ?? 0n) + BigInt(row.record.amount as number));
    statuses.set(row.record.status as string, (statuses.get(row.record.status as string) ?? 0) + 1);
  }
  return { count: rows.length, totals, statuses };
}

function summaryFigures(summary: Summary) {
  const minor = (total: string, currency: string) => {
    const [whole = '', fraction = ''] = total.split('.');
    const digits = currency === 'JPY' ? 0 : 2;
    return BigInt(`${whole}${fraction.padEnd(digits, '0')}`);
  };
  return {
    count: summary.count,
    totals: new Map(summary.totals.map((t) => [t.currency, minor(t.total, t.currency)])),
    statuses: new Map(summary.by_status.map((s) => [s.status as string, s.count])),
  };
}

describe('any upstream the spec allows', () => {
  it('list and group walks hold exactly the rows of the view, in list order, each once', async () => {
    await checkProperty(
      fc.asyncProperty(
        generatedWorld().chain((world) =>
          fc.tuple(fc.constant(world), fc.array(view(world), { minLength: 1, maxLength: 3 })),
        ),
        async ([world, choices]) => {
          const { bff, get } = await bffOver(world);
          try {
            for (const choice of choices.filter(validRange)) {
              const expected = expectedRows(world, choice).map((r) => keyOf(r.company, r.row.record.id));
              expect(await walkList(get, world, choice)).toEqual(expected);
            }
          } finally {
            await bff.close();
          }
        },
      ),
      40,
    );
  }, 120_000);

  it('summaries and "All columns" exports hold exactly the view, fields of later pages kept in other_fields', async () => {
    await checkProperty(
      fc.asyncProperty(
        generatedWorld().chain((world) => fc.tuple(fc.constant(world), view(world).filter(validRange))),
        async ([world, choice]) => {
          const { bff, get } = await bffOver(world);
          try {
            const company = world.companies[choice.company]?.id as string;
            const expected = expectedRows(world, choice);
            const summary = summarySchema.parse(
              await (await get(`/api/payments/summary?${queryOf(choice)}`, company)).json(),
            );
            expect(summaryFigures(summary)).toEqual(figures(expected));
            const csv = await get(`/api/payments/export.csv?${queryOf(choice)}`, company);
            expect(csv.status).toBe(200);
            const [header = [], ...rows] = parseCsv(await csv.text(), { bom: true }) as string[][];
            expect(header.at(-1)).toBe('Other fields');
            const idAt = header.indexOf('Payment ID');
            const companyAt = header.indexOf('Company ID');
            // A group's file names each row's company; ids are written exactly (a number's digits).
            expect(rows.map((row) => [row[companyAt], row[idAt]])).toEqual(
              expected.map((r) => [choice.group ? r.company : '', idInFile(r.row.record.id)]),
            );
            // A field of the first page has a column; one met later keeps its value in other_fields: never lost.
            const settlementAt = header.indexOf('settlement');
            for (const [i, { row }] of expected.entries()) {
              if (row.record.settlement === undefined) continue;
              const cells = rows[i] ?? [];
              const kept =
                settlementAt >= 0
                  ? JSON.parse(cells[settlementAt] ?? '')
                  : JSON.parse(cells.at(-1) ?? '').settlement;
              expect(kept).toEqual(row.record.settlement);
            }
          } finally {
            await bff.close();
          }
        },
      ),
      40,
    );
  }, 120_000);

  it('a walk split at remembered positions equals one sequential walk, exactly once, whatever the upstream did since', async () => {
    await checkProperty(
      fc.asyncProperty(
        generatedWorld().chain((world) =>
          fc.tuple(
            fc.constant(world),
            view(world)
              .filter(validRange)
              .map((choice) => ({ ...choice, group: false })),
            fc.integer({ min: 1, max: 100 }),
            fc.integer({ min: 0, max: 5 }),
            fc.array(fc.integer({ min: 0, max: 1_000 }), { maxLength: 6 }),
            fc.array(fc.tuple(fc.integer({ min: 0, max: 1_000 }), fc.integer({ min: 0, max: 1_000 })), {
              maxLength: 4,
            }),
          ),
        ),
        async ([world, choice, firstLimit, inserted, refusals, moves]) => {
          const sharedState = createEmbeddedState();
          const { bff, upstream, get } = await bffOver(world, sharedState);
          try {
            const company = world.companies[choice.company]?.id as string;
            // A first walk of the whole list remembers positions, at page boundaries of its own size.
            await walkList(get, world, { company: choice.company, group: false, limit: firstLimit });
            // And an export of the whole list (a summary would be answered again for a minute from its cache).
            await (await get('/api/payments/export.csv', company)).text();
            // Meanwhile: payments arrive at the top, cursors are refused, remembered positions point elsewhere.
            upstream.insert(company, inserted);
            const issued = upstream.cursors();
            for (const r of refusals)
              if (issued.length > 0) upstream.refuse(issued[r % issued.length] as string);
            const checkpoints = createCheckpoints(sharedState);
            for (const [from, to] of moves) {
              const near = await checkpoints.nearest(company, {}, Number.MAX_SAFE_INTEGER - 1, false);
              const other = issued[to % Math.max(1, issued.length)];
              if (near && other)
                checkpoints.record(
                  company,
                  {},
                  { ...near, cursor: other, boundary: { ...near.boundary, at: near.boundary.at - from } },
                );
            }
            const expected = expectedRows(world, choice);
            const summary = summarySchema.parse(
              await (await get(`/api/payments/summary?${queryOf(choice)}`, company)).json(),
            );
            expect(summaryFigures(summary)).toEqual(figures(expected));
            const csv = parseCsv(
              await (await get(`/api/payments/export.csv?${queryOf(choice)}`, company)).text(),
              { bom: true },
            ) as string[][];
            expect(csv.length - 1).toBe(expected.length);
          } finally {
            await bff.close();
          }
        },
      ),
      40,
    );
  }, 180_000);
});
