import { createServer, request as forward } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { type Company, problemSchema } from '@payments/shared';
import fc from 'fast-check';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveOnLoopback } from '../upstream/testing/serve-on-loopback.ts';
import { type SpecUpstream, startSpecUpstream } from '../upstream/testing/spec-upstream.ts';
import { createUserStore, hashPassword, type UserStore } from './auth/index.ts';
import type { createBff } from './create-bff.ts';
import { createTestBff, signInOn, testAuthenticator } from './testing/bff-harness.ts';
import { FAST_TEST_COST } from './testing/test-costs.ts';

/**
 * The BFF against the upstream written from the spec alone (spec-upstream.ts), not the sandbox: every reference
 * value below is computed here from the upstream's records, never by the BFF's own interpretation functions.
 */

type Row = Record<string, unknown>;
type App = ReturnType<typeof createBff>['app'];

const ZONE = 'Europe/Berlin';
const credentials = { secretId: 'spec-client-7f3a', secretPassword: 's3cr3t pa~ss/wörd?!' };
const PASSWORD = 'a fine password for fin';
/** A company in the BFF's list that the upstream does not count as a descendant: it answers 403 text/html. */
const REFUSED_COMPANY = 'NL-999999';

let upstream: SpecUpstream;
let users: UserStore;
const cleanups: Array<() => Promise<void>> = [];

beforeAll(async () => {
  upstream = await startSpecUpstream({ credentials });
  cleanups.push(() => upstream.close());
  const passwordHash = await hashPassword(PASSWORD, { cost: FAST_TEST_COST });
  users = createUserStore([{ username: 'fin', passwordHash, companies: '*', includeDescendants: true }]);
});
afterAll(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

/** A BFF on `baseUrl`, signed in as `fin`: `get` is a same-origin API call, `logs` what the BFF logged. */
async function bffOn(baseUrl: string, companies: readonly Company[]) {
  const bff = await createTestBff({
    upstream: { baseUrl, credentials },
    companies,
    settings: { PAYMENTS_TIME_ZONE: ZONE, PAYMENTS_AMOUNT_UNIT: 'minor' },
    parts: { users, authenticator: testAuthenticator(users) },
  });
  const logs = bff.logs;
  cleanups.push(bff.close);
  const cookie = await signInOn(bff.app, 'fin', PASSWORD);
  const get = (path: string, companyId?: string) =>
    Promise.resolve(
      bff.app.request(path, {
        headers: { 'X-CSRF': '1', cookie, ...(companyId === undefined ? {} : { 'X-Company-Id': companyId }) },
      }),
    );
  return { app: bff.app as App, get, logs };
}

type Get = Awaited<ReturnType<typeof bffOn>>['get'];

let bff: Awaited<ReturnType<typeof bffOn>>;
beforeAll(async () => {
  const root = upstream.companies.find((c) => c.parent_id === null)?.id ?? '';
  bff = await bffOn(upstream.baseUrl, [
    ...upstream.companies,
    { id: REFUSED_COMPANY, name: 'Not ours', parent_id: root },
  ]);
});

interface BrowserPage {
  data: Row[];
  next_cursor: string | null;
  has_more: boolean;
}

/** Every record of a list as the browser walks it through the BFF, following next_cursor; each page must be 200. */
async function walk(
  get: Get,
  companyId: string | undefined,
  filters: Record<string, string> = {},
  limit = 37,
): Promise<{ records: Row[]; pages: number }> {
  const records: Row[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const query = new URLSearchParams({ ...filters, limit: String(limit), ...(cursor ? { cursor } : {}) });
    const response = await get(`/api/payments?${query}`, companyId);
    expect(response.status, `${companyId} ${query}: ${await response.clone().text()}`).toBe(200);
    const page = (await response.json()) as BrowserPage;
    expect(Object.keys(page).sort()).toEqual(['data', 'has_more', 'next_cursor']);
    expect(page.has_more).toBe(page.next_cursor !== null);
    records.push(...page.data);
    cursor = page.next_cursor;
    pages += 1;
  } while (cursor !== null && pages < 200);
  return { records, pages };
}

// ---- reference interpretation, independent of shared/src/money.ts and date-time.ts ----------------------------

/** ISO 4217 minor-unit digits as Intl reports them (EUR 2, JPY 0, BHD 3). */
function exponentOf(currency: string): number {
  return (
    new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2
  );
}

/** The amount in major units as an exact decimal with at least the currency's digits, or '' when not money. */
function referenceAmount(amount: unknown, currency: unknown): string {
  if (typeof currency !== 'string') return '';
  const exponent = exponentOf(currency);
  if (typeof amount === 'number' && Number.isSafeInteger(amount)) {
    const minor = BigInt(amount);
    const scale = 10n ** BigInt(exponent);
    const magnitude = minor < 0n ? -minor : minor;
    const whole = (magnitude / scale).toString();
    const fraction = (magnitude % scale).toString().padStart(exponent, '0');
    return `${minor < 0n ? '-' : ''}${whole}${exponent === 0 ? '' : `.${fraction}`}`;
  }
  if (typeof amount === 'string' && /^-?(0|[1-9]\d*)(\.\d+)?$/.test(amount)) {
    const [whole = '', fraction = ''] = amount.split('.');
    const digits = fraction.padEnd(exponent, '0');
    const text = digits === '' ? whole : `${whole}.${digits}`;
    return /^-[0.]+$/.test(text) ? text.slice(1) : text;
  }
  return '';
}

const two = (n: number) => String(n).padStart(2, '0');
const berlinParts = new Intl.DateTimeFormat('en-US', {
  timeZone: ZONE,
  hourCycle: 'h23',
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: 'numeric',
  second: 'numeric',
});

/** Berlin's wall clock at an instant, counted as if it were UTC (ms). */
function berlinWallMs(instant: number): number {
  const field = (type: string) =>
    Number(berlinParts.formatToParts(instant).find((part) => part.type === type)?.value);
  return Date.UTC(
    field('year'),
    field('month') - 1,
    field('day'),
    field('hour'),
    field('minute'),
    field('second'),
  );
}

/**
 * The instant a `created_at` names: with `Z` or an offset as Date reads it; zone-less as a wall time in the
 * configured zone (README: PAYMENTS_TIME_ZONE is where the upstream's zone-less date-times are meant).
 */
function referenceInstant(value: unknown): number {
  const text = String(value);
  if (/(Z|[+-]\d\d:\d\d)$/.test(text)) return Date.parse(text);
  const wall = Date.parse(`${text}Z`);
  const fits = [wall - 3_600_000, wall - 7_200_000].filter((instant) => berlinWallMs(instant) === wall);
  if (fits.length === 0) throw new Error(`${text} falls in Berlin's spring-forward gap; pick another seed`);
  return Math.min(...fits);
}

/** ISO 8601 in Berlin with its offset, milliseconds only when non-zero. */
function referenceBerlinIso(instant: number): string {
  const second = Math.floor(instant / 1000) * 1000;
  const wall = new Date(berlinWallMs(second));
  const offsetMinutes = (berlinWallMs(second) - second) / 60_000;
  const millis = instant - second;
  const date = `${wall.getUTCFullYear()}-${two(wall.getUTCMonth() + 1)}-${two(wall.getUTCDate())}`;
  const time = `${two(wall.getUTCHours())}:${two(wall.getUTCMinutes())}:${two(wall.getUTCSeconds())}`;
  const fraction = millis === 0 ? '' : `.${String(millis).padStart(3, '0')}`;
  const sign = offsetMinutes < 0 ? '-' : '+';
  const offset = `${sign}${two(Math.floor(Math.abs(offsetMinutes) / 60))}:${two(Math.abs(offsetMinutes) % 60)}`;
  return `${date}T${time}${fraction}${offset}`;
}

/** A value as a CSV cell's text: strings as they are, other values as JSON, nothing for null; formula-like text behind `'`. */
function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  const formula = /^[\t\r\n]/.test(text) || (/^\s*[=+\-@]/.test(text) && !/^-?\d+(\.\d+)?$/.test(text));
  return formula ? `'${text}` : text;
}

interface CsvCell {
  text: string;
  quoted: boolean;
}

/** RFC 4180: CRLF-separated records, fields optionally in double quotes with `""` for a quote; throws on a stray quote. */
function parseCsv(input: string): CsvCell[][] {
  const records: CsvCell[][] = [];
  let record: CsvCell[] = [];
  let i = 0;
  while (i < input.length) {
    let text = '';
    let quoted = false;
    if (input[i] === '"') {
      quoted = true;
      i += 1;
      for (;;) {
        if (i >= input.length) throw new Error('unterminated quoted field');
        if (input[i] === '"') {
          if (input[i + 1] === '"') {
            text += '"';
            i += 2;
            continue;
          }
          i += 1;
          break;
        }
        text += input[i];
        i += 1;
      }
    } else {
      while (i < input.length && input[i] !== ',' && input[i] !== '\r') {
        if (input[i] === '"' || input[i] === '\n')
          throw new Error(`bare ${JSON.stringify(input[i])} at ${i}`);
        text += input[i];
        i += 1;
      }
    }
    record.push({ text, quoted });
    if (input[i] === ',') i += 1;
    else if (input.startsWith('\r\n', i)) {
      records.push(record);
      record = [];
      i += 2;
    } else if (i < input.length) throw new Error(`unexpected ${JSON.stringify(input[i])} at ${i}`);
  }
  if (record.length > 0) throw new Error('last record not ended by CRLF');
  return records;
}

// ---- tests --------------------------------------------------------------------------------------------------

describe('the BFF against the spec upstream', () => {
  it('walks every company of the tree to exactly the upstream’s records, in order, unchanged', async () => {
    expect(upstream.companies.length).toBeGreaterThanOrEqual(4);
    for (const company of upstream.companies) {
      const { records, pages } = await walk(bff.get, company.id);
      expect(pages).toBe(7);
      expect(records).toEqual(upstream.expected(company.id));
    }
    // The own company with no header: the upstream refuses its own id in X-Company-Id, so none must be sent.
    const root = upstream.companies.find((c) => c.parent_id === null)?.id ?? '';
    expect((await walk(bff.get, undefined)).records).toEqual(upstream.expected(root));
    const sentForRoot = upstream.requests.filter((r) => r.headers['x-company-id'] === root);
    expect(sentForRoot).toEqual([]);
  });

  it('walks a status filter, a date_from filter and both to exactly expected()', async () => {
    const cases: Record<string, string>[] = [
      { status: 'COMPLETED' },
      { status: 'FAILED' },
      { status: 'REFUNDED' },
      { date_from: '2026-06-15T12:00:00' },
      { status: 'AWAITING', date_from: '2026-03-29T01:30:00' },
    ];
    for (const company of upstream.companies) {
      for (const filters of cases) {
        const want = upstream.expected(company.id, filters);
        expect(want.length).toBeGreaterThan(0);
        expect((await walk(bff.get, company.id, filters)).records).toEqual(want);
      }
    }
  });

  it('walks a filter on each status the upstream returns beyond the four known ones', async () => {
    const seen = new Set(upstream.companies.flatMap((c) => upstream.expected(c.id).map((r) => r.status)));
    const unknown = ['PARTIALLY_REFUNDED_PENDING_REVIEW', 'chargeback_open'];
    for (const status of unknown) expect(seen.has(status)).toBe(true);
    const child = upstream.companies[1]?.id ?? '';
    for (const status of unknown) {
      const want = upstream.expected(child, { status });
      expect(want.length).toBeGreaterThan(0);
      expect((await walk(bff.get, child, { status })).records).toEqual(want);
    }
  });

  it('hands the browser any record with a usable id exactly as the upstream sent it (property)', async () => {
    let body = '';
    const custom = new Hono().get('/v1/payments/', (c) =>
      c.body(body, 200, { 'content-type': 'application/json' }),
    );
    const server = await serveOnLoopback(custom);
    cleanups.push(server.close);
    const { get } = await bffOn(`${server.origin}/v1`, [{ id: 'solo', name: 'Solo', parent_id: null }]);

    const key = fc.oneof(
      fc.string(),
      fc.constantFrom(
        '__proto__',
        'constructor',
        'toString',
        'amount',
        'currency',
        'created_at',
        'status',
        'company_id',
        'data',
        'next_cursor',
        'other_fields',
      ),
    );
    const id = fc.oneof(
      fc.string({ minLength: 1 }),
      fc.uuid(),
      fc.integer(),
      fc.maxSafeInteger(),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
    );
    const record = fc
      .tuple(id, fc.dictionary(key, fc.jsonValue(), { maxKeys: 8 }), fc.boolean())
      .map(([recordId, rest, idFirst]) => {
        const { id: _ignored, ...others } = rest;
        return idFirst ? { id: recordId, ...others } : { ...others, id: recordId };
      });
    await fc.assert(
      fc.asyncProperty(fc.array(record, { maxLength: 12 }), fc.boolean(), async (records, pretty) => {
        const envelope = { has_more: false, next_cursor: null, meta: { n: records.length }, data: records };
        body = pretty ? JSON.stringify(envelope, null, 2) : JSON.stringify(envelope);
        const sent = (JSON.parse(body) as { data: Row[] }).data;
        const response = await get('/api/payments?limit=100');
        expect(response.status, await response.clone().text()).toBe(200);
        const received = (await response.json()) as BrowserPage;
        expect(received.data).toEqual(sent);
        // Same members, values and order; toStrictEqual would take a member named `constructor` for a type.
        expect(JSON.stringify(received.data)).toBe(JSON.stringify(sent));
      }),
      { numRuns: 150 },
    );
  });

  it('hands the browser numeric ids and amounts beyond 2^53 with the digits the upstream sent', async () => {
    // Two payments whose ids differ only past double precision; the web app keys and de-duplicates rows by id.
    const body =
      '{"data":[{"id":9007199254740993,"amount":12345678901234567891,"currency":"EUR"},' +
      '{"id":9007199254740992,"amount":1,"currency":"EUR"}],"next_cursor":null,"has_more":false}';
    const custom = new Hono().get('/v1/payments/', (c) =>
      c.body(body, 200, { 'content-type': 'application/json' }),
    );
    const server = await serveOnLoopback(custom);
    cleanups.push(server.close);
    const { get } = await bffOn(`${server.origin}/v1`, [{ id: 'solo', name: 'Solo', parent_id: null }]);
    const text = await (await get('/api/payments?limit=10')).text();
    expect(text).toContain('"id":9007199254740993');
    expect(text).toContain('"amount":12345678901234567891');
  });

  it('exports one CSV record per payment with raw and exactly interpreted amounts, both times, and unknown fields in columns', async () => {
    const root = upstream.companies.find((c) => c.parent_id === null)?.id ?? '';
    const child = upstream.companies[3]?.id ?? '';
    const known = [
      'id',
      'company_id',
      'created_at',
      'created_at_utc',
      'status',
      'amount',
      'currency',
      'amount_raw',
      'description',
      'counterparty',
      'reference',
    ];
    // What the file's header calls each known column: the table's labels.
    const label: Record<string, string> = {
      id: 'Payment ID',
      company_id: 'Company ID',
      created_at: 'Created (Europe/Berlin)',
      created_at_utc: 'Created, UTC (ISO 8601)',
      status: 'Status',
      amount: 'Amount',
      currency: 'Currency',
      amount_raw: 'Amount as sent',
      description: 'Description',
      counterparty: 'Counterparty',
      reference: 'Reference',
      other_fields: 'Other fields',
    };
    // The upstream fields the known columns are made from: any other field is unknown.
    const interpreted = new Set(known.filter((c) => c !== 'created_at_utc' && c !== 'amount_raw'));
    let blankAmounts = 0;
    let rowsChecked = 0;
    for (const [companyId, filters] of [
      [root, {}],
      [child, { date_from: '2026-05-01T00:00:00' }],
    ] as const) {
      const want = upstream.expected(companyId, filters);
      const response = await bff.get(`/api/payments/export.csv?${new URLSearchParams(filters)}`, companyId);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      // Response.text() would drop the byte order mark (UTF-8 decode strips it): read the bytes.
      const bytes = Buffer.from(await response.arrayBuffer());
      expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      const [header = [], ...records] = parseCsv(bytes.subarray(3).toString('utf8'));
      const columns = header.map((cell) => cell.text);

      // Unknown fields of the first page (the export walks pages of 100), in order of first appearance.
      const unknown: string[] = [];
      for (const row of want.slice(0, 100))
        for (const field of Object.keys(row))
          if (!interpreted.has(field) && !unknown.includes(field)) unknown.push(field);
      expect(unknown).toEqual(expect.arrayContaining(['metadata', 'tags', 'fee', 'settled']));
      // The header names the zone the times are in: the configured one, as no other was asked for.
      expect(columns).toEqual([...known.map((c) => label[c]), ...unknown, 'Other fields']);

      expect(records).toHaveLength(want.length);
      const at = (name: string) => columns.indexOf(label[name] ?? name);
      for (const [index, record] of records.entries()) {
        const row = want[index] as Row;
        const cell = (name: string) => record[at(name)]?.text;
        expect(record).toHaveLength(columns.length);
        for (const c of record) if (c.text !== '') expect(c.quoted).toBe(true);
        expect(cell('id')).toBe(String(row.id));
        expect(cell('company_id')).toBe(cellText(row.company_id));
        expect(cell('status')).toBe(row.status);
        expect(cell('currency')).toBe(row.currency);
        expect(cell('amount_raw'), `row ${row.id}`).toBe(cellText(row.amount));
        const amount = referenceAmount(row.amount, row.currency);
        if (amount === '') blankAmounts += 1;
        expect(cell('amount'), `row ${row.id} amount ${JSON.stringify(row.amount)} ${row.currency}`).toBe(
          amount,
        );
        const instant = referenceInstant(row.created_at);
        expect(cell('created_at_utc'), `row ${row.id} ${row.created_at}`).toBe(
          new Date(instant).toISOString(),
        );
        expect(cell('created_at'), `row ${row.id} ${row.created_at}`).toBe(referenceBerlinIso(instant));
        for (const name of ['description', 'counterparty', 'reference', ...unknown])
          expect(cell(name), `row ${row.id} ${name}`).toBe(cellText(row[name]));
        expect(cell('other_fields')).toBe('');
        rowsChecked += 1;
      }
    }
    // The reference met every shape: decimal strings, integers in minor units, null and missing amounts.
    expect(rowsChecked).toBeGreaterThan(300);
    expect(blankAmounts).toBeGreaterThan(10);
  });

  it('turns a 422 refusing a cursor into a 400 cursor_expired once the row the list stood at is gone, without retrying it', async () => {
    // The list shrinks between two pages (a retention job, a reindex): the same upstream now refuses the cursor.
    const shrunk = await startSpecUpstream({ credentials, rowsPerCompany: 30 });
    cleanups.push(() => shrunk.close());
    const proxy = await switchableProxy(upstream.baseUrl);
    cleanups.push(proxy.close);
    const { get, logs } = await bffOn(`${proxy.origin}/v1`, upstream.companies);
    const first = await get('/api/payments?limit=37');
    expect(first.status).toBe(200);
    const { next_cursor } = (await first.json()) as BrowserPage;
    expect(next_cursor).not.toBeNull();

    proxy.target(shrunk.baseUrl);
    const next = await get(`/api/payments?limit=37&cursor=${encodeURIComponent(next_cursor ?? '')}`);
    expect(next.status).toBe(400);
    expect(next.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    // The list looked for the row it stood at from the top (no cursor), and found it gone.
    expect(problemSchema.parse(await next.json()).code).toBe('cursor_expired');
    expect(shrunk.requests.filter((r) => r.query.cursor !== undefined)).toHaveLength(1);
    expect(shrunk.requests[0]?.query.cursor).toBeDefined();
    expect(logs.filter((l) => l.includes('"status":422'))).toHaveLength(1);
  });

  it('turns the upstream’s text/html 403 for a company it does not count as ours into a 403 forbidden_company', async () => {
    for (const path of ['/api/payments?limit=10', '/api/payments/export.csv']) {
      const response = await bff.get(path, REFUSED_COMPANY);
      expect(response.status).toBe(403);
      expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      const text = await response.text();
      expect(text).not.toContain('<html');
      expect(problemSchema.parse(JSON.parse(text)).code).toBe('forbidden_company');
    }
    const refused = upstream.requests.filter((r) => r.headers['x-company-id'] === REFUSED_COMPANY);
    expect(refused.length).toBe(2);
  });

  /** Walks `child` through a fresh BFF after each idle pause; every page's status and the BFF's failed attempts. */
  async function walkAfterPauses(pausesMs: readonly number[]) {
    const { get, logs } = await bffOn(upstream.baseUrl, upstream.companies);
    const child = upstream.companies[2]?.id ?? '';
    const statuses: number[] = [];
    const counting: Get = async (path, companyId) => {
      const response = await get(path, companyId);
      statuses.push(response.status);
      return response;
    };
    for (const pauseMs of [...pausesMs, 0]) {
      expect((await walk(counting, child, {}, 100)).records).toEqual(upstream.expected(child));
      await sleep(pauseMs);
    }
    const failed = logs
      .filter((line) => line.includes('upstream_attempt_failed'))
      .map((line) => JSON.parse(line) as { attempt: number; outcome: string });
    return { statuses, failed };
  }

  it('comes back 1.2 s after the upstream closed its idle keep-alive sockets with no failed attempt', async () => {
    const { statuses, failed } = await walkAfterPauses([1_200, 1_200, 1_200]);
    expect(statuses).toEqual(Array(12).fill(200));
    expect(failed).toEqual([]);
  });

  it('answers 200 when a request races the upstream closing an idle socket at 1 s: a reset is retried', async () => {
    const { statuses, failed } = await walkAfterPauses([1_000, 995, 1_005, 1_000]);
    expect(statuses).toEqual(Array(15).fill(200));
    // Now and then a reused socket is reset ({"attempt":1,"outcome":"network: ECONNRESET"}); the retry succeeds.
    for (const attempt of failed) {
      expect(attempt.attempt).toBe(1);
      expect(attempt.outcome).toMatch(/^network: (ECONNRESET|UND_ERR_SOCKET|EPIPE)$/);
    }
  });
});

/** A plain HTTP proxy on loopback whose upstream can be switched between requests. */
async function switchableProxy(baseUrl: string) {
  let target = new URL(baseUrl);
  const server = createServer((req, res) => {
    const out = forward(
      { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    target(next: string) {
      target = new URL(next);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
