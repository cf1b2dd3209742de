import { majorAmount, type Payment, summarySchema } from '@payments/shared';
import { parse as parseCsv } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './testing/bff-harness.ts';

let h: Harness;
let cookie: string;
beforeAll(async () => {
  h = await createHarness();
  cookie = await h.signIn();
});
afterAll(async () => {
  await h.close();
});

/** The events of a search stream, in order. */
async function events(response: Response) {
  const text = await response.text();
  return [...text.matchAll(/event: (\w+)\ndata: (.*)\n/g)].map(([, event, data]) => ({
    event: event as string,
    data: JSON.parse(data as string),
  }));
}

/** What a search found: each match's company and id. */
async function found(path: string, headers: Record<string, string>, who = cookie) {
  const stream = await events(await h.call(path, { cookie: who, headers }));
  const matches = stream.filter((e) => e.event === 'match');
  return {
    stream,
    keys: matches.flatMap((e) =>
      (e.data.data as Payment[]).map((row, i) => `${e.data.company_ids[i]} ${String(row.id)}`),
    ),
  };
}

const tree = ['acme-eu', 'acme-eu-de', 'acme-eu-fr'];
async function groupRows() {
  return (
    await Promise.all(
      tree.map(async (company) => (await h.walkSandbox(company)).map((row) => ({ company, row }))),
    )
  ).flat();
}
const keysOf = (rows: { company: string; row: Payment }[]) =>
  rows.map((r) => `${r.company} ${String(r.row.id)}`).sort();
const fold = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

describe('search', () => {
  it.each([
    ['an id, by part of it', (rows: Payment[]) => String(rows[3]?.id).slice(-6)],
    ['a reference', (rows: Payment[]) => String(rows[10]?.reference)],
    [
      'a counterparty, accents and case aside',
      (rows: Payment[]) => fold(String(rows[7]?.counterparty)).toUpperCase(),
    ],
  ])('finds %s across a group, exactly the rows a walk of the sandbox holds', async (_what, pick) => {
    const all = await groupRows();
    const q = pick(all.map((r) => r.row));
    const expected = all.filter(({ row }) =>
      [row.id, row.reference, row.counterparty].some((field) => fold(String(field)).includes(fold(q))),
    );
    expect(expected.length).toBeGreaterThan(0);
    const { keys, stream } = await found(`/api/payments/search?group=true&q=${encodeURIComponent(q)}`, {
      'X-Company-Id': 'acme-eu',
    });
    expect(keys.sort()).toEqual(keysOf(expected));
    expect(stream[0]?.event).toBe('start');
    expect(stream.at(-1)).toMatchObject({ event: 'done', data: { complete: true, found: expected.length } });
    expect(stream.some((e) => e.event === 'progress')).toBe(true);
  });

  it('finds an amount and a range of amounts as the table shows them, in the view only', async () => {
    const all = (await groupRows()).filter(({ row }) => row.status === 'COMPLETED');
    const major = ({ row }: { row: Payment }) => Number(majorAmount(row.amount, row.currency, 'minor'));
    const one = all[5] as { company: string; row: Payment };
    const amount = majorAmount(one.row.amount, one.row.currency, 'minor') as string;
    const exact = await found(`/api/payments/search?group=true&status=COMPLETED&q=${amount}`, {
      'X-Company-Id': 'acme-eu',
    });
    expect(exact.keys.sort()).toEqual(
      keysOf(
        all.filter(
          (r) =>
            major(r) === Number(amount) ||
            String(r.row.id).includes(amount) ||
            String(r.row.reference).includes(amount),
        ),
      ),
    );
    const range = await found('/api/payments/search?group=true&status=COMPLETED&q=100..200', {
      'X-Company-Id': 'acme-eu',
    });
    expect(range.keys.sort()).toEqual(keysOf(all.filter((r) => major(r) >= 100 && major(r) <= 200)));
  });

  it('refuses an empty or overlong q before anything goes upstream', async () => {
    h.recorded.length = 0;
    for (const q of ['', 'x'.repeat(201)])
      expect((await h.call(`/api/payments/search?q=${q}`, { cookie })).status).toBe(400);
    expect(h.recorded).toHaveLength(0);
  });
});

describe('find (a payment link without its company)', () => {
  it("finds a subsidiary's payment from anywhere in the user's scope, and names its company", async () => {
    const target = (await h.walkSandbox('acme-eu-de'))[42] as Payment;
    const { keys, stream } = await found(
      `/api/payments/find?id=${encodeURIComponent(String(target.id))}`,
      {},
    );
    expect(keys).toEqual([`acme-eu-de ${String(target.id)}`]);
    expect(stream.at(-1)).toMatchObject({ event: 'done', data: { found: 1 } });
  });

  it('never looks beyond the user: a user of acme-eu alone does not find it, and is told how far it looked', async () => {
    const target = (await h.walkSandbox('acme-eu-de'))[42] as Payment;
    const euOnly = await h.signIn('eu-only');
    h.recorded.length = 0;
    const { keys, stream } = await found(
      `/api/payments/find?id=${encodeURIComponent(String(target.id))}`,
      {},
      euOnly,
    );
    expect(keys).toEqual([]);
    expect(stream[0]).toMatchObject({ event: 'start', data: { companies: 1 } });
    expect(stream.at(-1)).toMatchObject({ event: 'done', data: { found: 0 } });
    expect(stream.at(-1)?.data.read).toBe((await h.walkSandbox('acme-eu')).length);
    expect(new Set(h.recorded.map((r) => r.headers['x-company-id']))).toEqual(new Set(['acme-eu']));
  });
});

describe('currency', () => {
  it('filters the list, the summary and the export alike, to the exact rows and sums of that currency', async () => {
    const rows = (await h.walkSandbox('acme')).filter(
      (row) => row.currency === 'EUR' || row.currency === 'JPY',
    );
    const headers = { 'X-Company-Id': 'acme' };
    const listed: Payment[] = [];
    let cursor: string | null = null;
    do {
      const response = await h.call(
        `/api/payments?currency=EUR,JPY&limit=37${cursor ? `&cursor=${cursor}` : ''}`,
        {
          cookie,
          headers,
        },
      );
      const page = (await response.json()) as { data: Payment[]; next_cursor: string | null };
      listed.push(...page.data);
      cursor = page.next_cursor;
    } while (cursor);
    expect(listed.map((r) => r.id)).toEqual(rows.map((r) => r.id));
    const summary = summarySchema.parse(
      await (await h.call('/api/payments/summary?currency=EUR,JPY', { cookie, headers })).json(),
    );
    expect(summary.count).toBe(rows.length);
    expect(summary.totals.map((t) => t.currency)).toEqual(['EUR', 'JPY']);
    const csv = parseCsv(
      await (await h.call('/api/payments/export.csv?currency=EUR,JPY', { cookie, headers })).text(),
      {
        bom: true,
        columns: true,
      },
    ) as Record<string, string>[];
    expect(csv.map((row) => row['Payment ID'])).toEqual(rows.map((r) => String(r.id)));
    const euro = summary.totals.find((t) => t.currency === 'EUR');
    const sum = csv
      .filter((row) => row.Currency === 'EUR')
      .reduce((total, row) => total + BigInt((row.Amount as string).replace('.', '')), 0n);
    expect(euro?.total.replace('.', '')).toBe(String(sum));
  });

  it('refuses a currency that is not a code', async () => {
    expect((await h.call('/api/payments?currency=euro', { cookie })).status).toBe(400);
  });
});
