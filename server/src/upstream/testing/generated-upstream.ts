import fc from 'fast-check';
import { Hono } from 'hono';

/**
 * Upstreams generated for property tests: everything the spec leaves open varies from run to run (list order,
 * the order of rows created at the same instant, ids of any type — strings, small integers repeated across
 * companies, integers beyond 2^53 —, cursors of up to 4 KB of any printable Unicode, pages shorter than asked or
 * empty while `has_more` is true, fields that first appear on later pages). Answers as the spec says: envelope,
 * `X-Company-Id` for descendants, `status` and `date_from` filters, cursors bound to their filters. The data is the
 * oracle the tests compare the BFF with.
 */

type IdStyle = 'string' | 'small' | 'huge';
type PageFill = 'full' | 'short' | 'holes';

export interface GeneratedRow {
  /** The record as the upstream sends it (ids beyond 2^53 as raw JSON). */
  record: Record<string, unknown>;
  /** Seconds since the epoch of `created_at`, and the row's place among rows of that second (the tie order). */
  at: number;
  tie: number;
}

interface GeneratedCompany {
  id: string;
  name: string;
  parent_id: string | null;
  rows: GeneratedRow[];
}

export interface GeneratedWorld {
  companies: GeneratedCompany[];
  order: 'created_at_desc' | 'created_at_asc';
  ids: IdStyle;
  fill: PageFill;
  /** Per cursor, a prefix of this many characters (of `alphabet`) makes it long. */
  cursorLength: number;
  alphabet: string;
  seed: number;
}

const BASE = Date.UTC(2025, 0, 1) / 1000;
const STATUSES = ['COMPLETED', 'AWAITING', 'FAILED'] as const;
const CURRENCIES = ['EUR', 'USD', 'JPY'] as const;

/** What a cursor that stands before the first row stands after. */
const BEFORE_ALL: GeneratedRow = { record: {}, at: 0, tie: -1 };

const wall = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 19);

/** Builds the world's rows from the generated choices (the creation instants drawn from few seconds: many ties). */
function worldOf(choice: {
  sizes: number[];
  ticks: number[][];
  ids: IdStyle;
  order: GeneratedWorld['order'];
  fill: PageFill;
  cursorLength: number;
  alphabet: string;
  late: number;
  seed: number;
}): GeneratedWorld {
  const companies: GeneratedCompany[] = choice.sizes.map((size, c) => ({
    id: `co-${c}`,
    name: `Company ${c}`,
    parent_id: c === 0 ? null : `co-${Math.floor((c - 1) / 2)}`,
    rows: Array.from({ length: size }, (_, i) => {
      const at = BASE + (choice.ticks[c]?.[i] ?? 0) * 3600;
      const id =
        choice.ids === 'small'
          ? i + 1
          : choice.ids === 'huge'
            ? JSON.rawJSON(String(9_007_199_254_740_993n + BigInt(i * 2)))
            : `pay_${c}_${i}_\u00e9`;
      const record: Record<string, unknown> = {
        id,
        created_at: wall(at),
        status: STATUSES[(i + c) % STATUSES.length],
        amount: ((i * 7919 + c * 104_729) % 100_000) - 20_000,
        currency: CURRENCIES[(i + 2 * c) % CURRENCIES.length],
        counterparty: `Payee ${i % 5}`,
      };
      // A field the first page never shows.
      if (i >= choice.late) record.settlement = { batch: `b${i}`, at: wall(at + 60) };
      return { record, at, tie: i };
    }),
  }));
  // The list order: by instant, ties in an order of the upstream's own (here: by a hash of the row's place).
  const tieRank = (row: GeneratedRow) => (row.tie * 2_654_435_761 + choice.seed) % 4_294_967_291;
  for (const company of companies)
    company.rows.sort((a, b) =>
      choice.order === 'created_at_desc'
        ? b.at - a.at || tieRank(a) - tieRank(b)
        : a.at - b.at || tieRank(a) - tieRank(b),
    );
  return { companies, ...choice };
}

/**
 * A plain world for counting tests: `companies` companies (the first the parent of the rest) of `rows` payments
 * each, spread evenly over `days` days from `start` (seconds), newest first, statuses and currencies in turn.
 */
export function evenWorld(shape: {
  companies: number;
  rows: number;
  days: number;
  start: number;
}): GeneratedWorld {
  const companies = Array.from({ length: shape.companies }, (_, c) => ({
    id: `co-${c}`,
    name: `Company ${c}`,
    parent_id: c === 0 ? null : 'co-0',
    rows: Array.from({ length: shape.rows }, (_, i) => {
      const at = shape.start + Math.floor((i * shape.days * 86_400) / shape.rows) + c;
      return {
        record: {
          id: `p${c}-${i}`,
          created_at: wall(at),
          status: STATUSES[i % STATUSES.length],
          amount: 100 + i,
          currency: CURRENCIES[(i >> 1) % CURRENCIES.length],
        },
        at,
        tie: i,
      };
    }).reverse(),
  }));
  return {
    companies,
    order: 'created_at_desc',
    ids: 'string',
    fill: 'full',
    cursorLength: 0,
    alphabet: 'c',
    seed: 1,
  };
}

/** Any world the spec allows, small enough for a property test's run. */
export function generatedWorld(): fc.Arbitrary<GeneratedWorld> {
  return fc
    .record({
      sizes: fc.array(fc.integer({ min: 0, max: 140 }), { minLength: 1, maxLength: 4 }),
      ids: fc.constantFrom<IdStyle>('string', 'small', 'huge'),
      order: fc.constantFrom<GeneratedWorld['order']>('created_at_desc', 'created_at_asc'),
      fill: fc.constantFrom<PageFill>('full', 'short', 'holes'),
      cursorLength: fc.constantFrom(0, 40, 1_500, 4_000),
      alphabet: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 8 }),
      late: fc.integer({ min: 1, max: 150 }),
      seed: fc.integer({ min: 1, max: 1_000_000 }),
    })
    .chain((choice) =>
      fc
        .tuple(
          ...choice.sizes.map((size) =>
            fc.array(fc.integer({ min: 0, max: 30 }), { minLength: size, maxLength: size }),
          ),
        )
        .map((ticks) => worldOf({ ...choice, ticks })),
    );
}

/**
 * A payment that is PENDING until `at` (milliseconds on the upstream's clock) and `to` from then on: the spec
 * shows no transitions, so an upstream may settle payments after the fact.
 */
export interface Settlement {
  company: string;
  /** The row, by its place among the company's generated rows (`GeneratedRow.tie`). */
  tie: number;
  at: number;
  to: string;
}

/** The status a row has at `time`, with `settlements` applied. */
function statusAt(
  row: GeneratedRow,
  company: string,
  settlements: readonly Settlement[],
  time: number,
): unknown {
  const settles = settlements.find((s) => s.company === company && s.tie === row.tie);
  if (!settles) return row.record.status;
  return time >= settles.at ? settles.to : 'PENDING';
}

/** The rows the upstream lists for a company with these filters, in its order (statuses as at `time`). */
export function listed(
  world: GeneratedWorld,
  company: string,
  filters: { status?: string | undefined; date_from?: string | undefined },
  changing: { settlements: readonly Settlement[]; time: number } = { settlements: [], time: 0 },
) {
  const rows = world.companies.find((c) => c.id === company)?.rows ?? [];
  const status = (row: GeneratedRow) => statusAt(row, company, changing.settlements, changing.time);
  return rows.filter(
    (row) =>
      (filters.status === undefined || status(row) === filters.status) &&
      (filters.date_from === undefined || (row.record.created_at as string) >= filters.date_from),
  );
}

/** What the spec allows an upstream to forget or change, on a clock the test holds. */
export interface ForgetfulOptions {
  /** The upstream's clock, in milliseconds (a test's own, never real time). */
  now?: () => number;
  /** A cursor older than this is refused with 410, as the spec allows. */
  cursorTtlMs?: number;
  /** Payments PENDING until a time, then settled. */
  settlements?: readonly Settlement[];
}

/**
 * The world's API as a Hono app (serve it in-process with InProcessDispatcher). `refuse(cursor)` makes it answer
 * 400 to a cursor it issued; `insert` adds rows newest first (created later than every row) to a company. With
 * `forgetful`, cursors expire and payments settle on the test's clock.
 */
export function generatedUpstream(
  world: GeneratedWorld,
  credentials = { secretId: 'gen', secretPassword: 'gen-pw' },
  forgetful: ForgetfulOptions = {},
) {
  const now = forgetful.now ?? (() => 0);
  const settlements = forgetful.settlements ?? [];
  const cursors = new Map<
    string,
    { company: string; filters: string; after: GeneratedRow; issuedAt: number }
  >();
  let expired = 0;
  const refused = new Set<string>();
  let issued = 0;
  let served = 0;
  const app = new Hono();
  const expected = `Basic ${Buffer.from(`${credentials.secretId}:${credentials.secretPassword}`).toString('base64')}`;
  app.get('/v1/payments/', (c) => {
    served += 1;
    if (c.req.header('authorization') !== expected) return c.json({ error: 'who?' }, 401);
    const root = world.companies[0] as GeneratedCompany;
    const company = c.req.header('x-company-id') ?? root.id;
    if (
      !world.companies.some((co) => co.id === company) ||
      (company === root.id && c.req.header('x-company-id'))
    )
      return c.text('forbidden', 403);
    const limit = Number(c.req.query('limit') ?? 50);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) return c.json({ error: 'limit' }, 400);
    const filters = { status: c.req.query('status'), date_from: c.req.query('date_from') };
    const filterKey = JSON.stringify(filters);
    const time = now();
    const rows = listed(world, company, filters, { settlements, time });
    let start = 0;
    let standsAfter = BEFORE_ALL;
    const cursor = c.req.query('cursor');
    if (cursor !== undefined) {
      const known = cursors.get(cursor);
      if (!known || refused.has(cursor) || known.company !== company || known.filters !== filterKey)
        return c.json({ error: 'bad cursor' }, 400);
      if (forgetful.cursorTtlMs !== undefined && time - known.issuedAt >= forgetful.cursorTtlMs) {
        expired += 1;
        return c.json({ error: 'cursor expired' }, 410);
      }
      // Keyset over the whole list: rows added at the top, or leaving the filter (settled), do not move it.
      const all = world.companies.find((co) => co.id === company)?.rows ?? [];
      const place = new Map(all.map((row, index) => [row, index]));
      const after = place.get(known.after) ?? -1;
      start = rows.findIndex((row) => (place.get(row) ?? -1) > after);
      if (start < 0) start = rows.length;
      standsAfter = known.after;
    }
    // The page size this upstream chooses: what was asked, less, or nothing, while more follow.
    const take =
      world.fill === 'full'
        ? limit
        : world.fill === 'short'
          ? Math.max(1, (issued * 37 + limit) % (limit + 1))
          : issued % 3 === 1
            ? 0
            : limit;
    const data = rows.slice(start, start + take);
    const more = start + take < rows.length;
    let next: string | null = null;
    if (more) {
      issued += 1;
      // Cut by characters (code points), as text in any real upstream's encoding is.
      const letters = Array.from(
        world.alphabet.repeat(Math.ceil(world.cursorLength / world.alphabet.length)),
      );
      next = `${letters.slice(0, world.cursorLength).join('')}#${issued}`;
      // An empty page's cursor stands where the one before it stood (the first page's: before the first row).
      cursors.set(next, {
        company,
        filters: filterKey,
        after: data.at(-1) ?? standsAfter,
        issuedAt: time,
      });
    }
    const records = data.map((row) =>
      settlements.length === 0
        ? row.record
        : { ...row.record, status: statusAt(row, company, settlements, time) },
    );
    return c.body(JSON.stringify({ data: records, next_cursor: next, has_more: more }), 200, {
      'content-type': 'application/json',
    });
  });
  return {
    app,
    credentials,
    /** The upstream's data as it is now (after `insert`). */
    world,
    /** Requests answered so far. */
    served: () => served,
    /** Cursors refused for their age (410) so far. */
    expired: () => expired,
    /** Every cursor issued so far. */
    cursors: () => [...cursors.keys()],
    refuse(cursor: string) {
      refused.add(cursor);
    },
    insert(company: string, count: number) {
      const target = world.companies.find((c) => c.id === company) as GeneratedCompany;
      const newest = Math.max(BASE, ...target.rows.map((r) => r.at));
      const added = Array.from({ length: count }, (_, i) => ({
        record: {
          id: world.ids === 'small' ? 100_000 + i : `new_${i}`,
          created_at: wall(newest + 3600 * (i + 1)),
          status: 'COMPLETED',
          amount: 1,
          currency: 'EUR',
        },
        at: newest + 3600 * (i + 1),
        tie: 100_000 + i,
      }));
      if (world.order === 'created_at_desc') target.rows.unshift(...added.reverse());
      else target.rows.push(...added);
    },
  };
}
