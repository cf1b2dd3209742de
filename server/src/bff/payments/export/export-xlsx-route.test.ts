import { problemSchema, summarySchema } from '@payments/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InProcessDispatcher } from '../../../upstream/testing/in-process-dispatcher.ts';
import { createHarness, type Harness } from '../../testing/bff-harness.ts';
import { readWorkbook } from './testing/read-xlsx.ts';

let h: Harness;
let cookie: string;

beforeAll(async () => {
  h = await createHarness();
  cookie = await h.signIn();
});
afterAll(async () => {
  await h.close();
});

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** CSV lines as cells, for columns without free text (no comma, quote or line break in a cell). */
const csvRows = (text: string) =>
  text
    .replace(/^\uFEFF/, '')
    .split('\r\n')
    .filter(Boolean)
    .map((line) => line.split(',').map((cell) => cell.replace(/^"|"$/g, '').replace(/^'/, '')));

describe('GET /api/payments/export.xlsx', () => {
  it('holds the rows of the CSV, typed: amounts as the same exact numbers, times as date-times', async () => {
    const headers = { 'X-Company-Id': 'acme-eu' };
    const query = 'status=COMPLETED&columns=id,created_at,amount,currency';
    const csv = csvRows(
      await (await h.call(`/api/payments/export.csv?${query}`, { cookie, headers })).text(),
    );
    const response = await h.call(`/api/payments/export.xlsx?${query}`, { cookie, headers });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(XLSX);
    expect(response.headers.get('content-disposition')).toMatch(
      /^attachment; filename="payments_acme-eu_COMPLETED_all_as_of_\d{4}-\d{2}-\d{2}\.xlsx"$/,
    );
    const sheet = (await readWorkbook(new Uint8Array(await response.arrayBuffer()))).worksheets[0];
    const [header, ...rows] = csv;
    // More than a page: the rows after the first batch are written as the walk goes.
    expect(rows.length).toBeGreaterThan(100);
    expect((sheet?.getRow(1).values as unknown[] | undefined)?.slice(1)).toEqual(header);
    expect(sheet?.rowCount).toBe(csv.length);
    const at = (name: string) => (header ?? []).indexOf(name) + 1;
    rows.forEach((row, i) => {
      const cells = sheet?.getRow(i + 2);
      expect(cells?.getCell(at('Payment ID')).value).toBe(row[at('Payment ID') - 1]);
      expect(cells?.getCell(at('Amount')).value).toBe(Number(row[at('Amount') - 1]));
      expect(cells?.getCell(at('Amount')).numFmt).toContain(`"${row[at('Currency') - 1]}"`);
      // The sandbox's times are UTC, so the wall time is the instant.
      const utc = new Date(row[at('Created (UTC)') - 1] ?? '');
      expect(cells?.getCell(at('Created (UTC)')).value).toEqual(utc);
    });
  });

  it("names a group's companies beside their ids, from the companies tree", async () => {
    const response = await h.call('/api/payments/export.xlsx?group=true&status=AWAITING&columns=@company', {
      cookie,
      headers: { 'X-Company-Id': 'acme-us' },
    });
    const sheet = (await readWorkbook(new Uint8Array(await response.arrayBuffer()))).worksheets[0];
    expect((sheet?.getRow(1).values as unknown[] | undefined)?.slice(1)).toEqual(['Payment ID', 'Company']);
    const names = new Set(h.companies.map((company) => company.name));
    const seen = new Set<string>();
    sheet?.eachRow((row, n) => {
      if (n === 1) return;
      const [, , name] = row.values as string[];
      seen.add(name ?? '');
      expect(names.has(name ?? '')).toBe(true);
    });
    expect(seen.size).toBeGreaterThan(1);
  });

  it('answers a down upstream with its error status before any byte of the file', async () => {
    const down = h.make({
      upstream: { dispatcher: new InProcessDispatcher(() => new Response('', { status: 401 })) },
    });
    try {
      const own = await h.signIn();
      const response = await down.app.request('/api/payments/export.xlsx', {
        headers: { 'X-CSRF': '1', cookie: own },
      });
      expect(response.status).toBeGreaterThanOrEqual(500);
      expect(problemSchema.parse(await response.json()).code).toBe('upstream_rejected_credentials');
    } finally {
      await down.close();
    }
  });

  it('breaks off a file whose walk fails after the first page, and logs how it ended', async () => {
    // Every page after the first fails: the upstream client retries, then gives up.
    const failing = h.make({
      upstream: {
        dispatcher: new InProcessDispatcher((request) =>
          new URL(request.url).searchParams.has('cursor')
            ? new Response('', { status: 503 })
            : h.sandbox.app.fetch(request),
        ),
      },
    });
    try {
      h.logs.length = 0;
      const response = await failing.app.request('/api/payments/export.xlsx', {
        headers: { 'X-CSRF': '1', cookie },
      });
      expect(response.status).toBe(200);
      await expect(response.arrayBuffer()).rejects.toThrow();
      const ends = h.logs.map((line) => JSON.parse(line)).filter((line) => line.msg === 'export_end');
      expect(ends).toEqual([
        expect.objectContaining({ format: 'xlsx', end: 'upstream_failure', failure: 'upstream_unavailable' }),
      ]);
    } finally {
      await failing.close();
    }
  }, 30_000);
});

describe('the XLSX figures sheet', () => {
  it("holds the screen's figures of the same view: per currency, per status, per company, and its as-of time", async () => {
    const headers = { 'X-Company-Id': 'acme-eu' };
    const query = 'group=true&date_from=2026-03-01T00:00:00&date_to=2026-05-31T23:59:59';
    const summary = summarySchema.parse(
      await (await h.call(`/api/payments/summary?${query}`, { cookie, headers })).json(),
    );
    const response = await h.call(`/api/payments/export.xlsx?${query}`, { cookie, headers });
    const book = await readWorkbook(new Uint8Array(await response.arrayBuffer()));
    expect(book.worksheets.map((sheet) => sheet.name)).toEqual(['payments', 'figures']);
    const figures = book.getWorksheet('figures');
    const lines: string[] = [];
    figures?.eachRow((row) => {
      lines.push(
        ((row.values as unknown[]).slice(1) as unknown[])
          .map((v) => (v instanceof Object ? JSON.stringify(v) : String(v ?? '')))
          .join('|'),
      );
    });
    expect(lines[0]).toBe('Company|Status|Currency|Payments|Total');
    const names = new Map(h.companies.map((c) => [c.id, c.name]));
    const expected = [
      ...summary.totals.map((t) => `All companies|All|${t.currency}|${t.count}|${Number(t.total)}`),
      ...(summary.by_status_totals ?? []).flatMap((s) =>
        s.totals.map((t) => `All companies|${s.status}|${t.currency}|${t.count}|${Number(t.total)}`),
      ),
      ...(summary.companies ?? []).flatMap((c) => [
        ...c.totals.map((t) => `${names.get(c.company_id)}|All|${t.currency}|${t.count}|${Number(t.total)}`),
        ...c.by_status_totals.flatMap((s) =>
          s.totals.map(
            (t) => `${names.get(c.company_id)}|${s.status}|${t.currency}|${t.count}|${Number(t.total)}`,
          ),
        ),
      ]),
    ];
    expect(lines.slice(1, expected.length + 1)).toEqual(expected);
    expect(lines.at(-2)).toBe(`Period|2026-03-01 – 2026-05-31 (${h.settings.PAYMENTS_TIME_ZONE})`);
    expect(lines.at(-1)).toMatch(/^As of\|\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });

  it('a sorted file holds the rows in the sorted order', async () => {
    const response = await h.call('/api/payments/export.csv?sort=amount:asc&currency=EUR&columns=amount', {
      cookie,
    });
    const rows = csvRows(await response.text()).slice(1);
    const amounts = rows.map((row) => Number(row[1]));
    expect(amounts.length).toBeGreaterThan(100);
    expect(amounts).toEqual(amounts.toSorted((a, b) => a - b));
  });
});
