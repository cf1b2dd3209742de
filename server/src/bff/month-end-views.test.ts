import { addDecimals, majorAmount, type Payment, summarySchema } from '@payments/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness, signInOn } from './testing/bff-harness.ts';

let h: Harness;
let cookie: string;
beforeAll(async () => {
  h = await createHarness();
  cookie = await h.signIn();
});
afterAll(async () => {
  await h.close();
});

const tree = ['acme-eu', 'acme-eu-de', 'acme-eu-fr'];
const group = { 'X-Company-Id': 'acme-eu' };

async function groupRows() {
  return (
    await Promise.all(
      tree.map(async (company) => (await h.walkSandbox(company)).map((row) => ({ company, row }))),
    )
  ).flat();
}
const keysOf = (rows: { company: string; row: Payment }[]) =>
  rows.map((r) => `${r.company} ${String(r.row.id)}`);
const major = (row: Payment) => majorAmount(row.amount, row.currency, 'minor');

/** Every page of a list, following its cursors. */
async function listAll(query: string) {
  const keys: string[] = [];
  let cursor: string | null = null;
  let requests = 0;
  do {
    const url: string = `/api/payments?${query}&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const response = await h.call(url, { cookie, headers: group });
    expect(response.status).toBe(200);
    const page = (await response.json()) as {
      data: Payment[];
      company_ids: string[];
      next_cursor: string | null;
    };
    keys.push(...page.data.map((row, i) => `${page.company_ids[i]} ${String(row.id)}`));
    cursor = page.next_cursor;
    requests += 1;
  } while (cursor && requests < 200);
  return keys;
}

/** The sum of the rows' amounts per currency, as exact decimals. */
function sums(rows: Payment[]) {
  const totals = new Map<string, string>();
  for (const row of rows) {
    const amount = major(row);
    if (amount !== null)
      totals.set(String(row.currency), addDecimals(totals.get(String(row.currency)) ?? '0', amount));
  }
  return [...totals].sort(([a], [b]) => a.localeCompare(b));
}

describe('a view of several statuses and an amount range', () => {
  const wanted = (row: Payment) => {
    const amount = Number(major(row));
    return (row.status === 'AWAITING' || row.status === 'FAILED') && amount >= 50 && amount <= 2000;
  };

  it('lists exactly the rows of either status within the range, each once, across the group', async () => {
    const expected = (await groupRows()).filter(({ row }) => wanted(row));
    expect(expected.length).toBeGreaterThan(10);
    const listed = await listAll('group=true&status=AWAITING,FAILED&amount_min=50&amount_max=2000');
    expect(listed.length).toBe(expected.length);
    expect(new Set(listed).size).toBe(listed.length);
    expect(listed.toSorted()).toEqual(keysOf(expected).toSorted());
  });

  it('counts the same rows, with every status its own money, and each company its own line', async () => {
    const all = await groupRows();
    const expected = all.filter(({ row }) => wanted(row));
    const response = await h.call(
      '/api/payments/summary?group=true&status=AWAITING,FAILED&amount_min=50&amount_max=2000',
      {
        cookie,
        headers: group,
      },
    );
    const summary = summarySchema.parse(await response.json());
    expect(summary.count).toBe(expected.length);
    for (const status of ['AWAITING', 'FAILED']) {
      const rows = expected.filter(({ row }) => row.status === status).map(({ row }) => row);
      const line = summary.by_status_totals?.find((s) => s.status === status);
      expect(line?.count).toBe(rows.length);
      expect(line?.totals.map((t) => [t.currency, t.total])).toEqual(sums(rows));
    }
    expect(summary.companies?.map((c) => c.company_id)).toEqual(tree);
    for (const company of tree) {
      const rows = expected.filter((r) => r.company === company).map(({ row }) => row);
      const line = summary.companies?.find((c) => c.company_id === company);
      expect(line?.count).toBe(rows.length);
      expect(line?.totals.map((t) => [t.currency, t.total])).toEqual(sums(rows));
    }
  });

  it('names a currency code that does not exist rather than listing nothing', async () => {
    const response = await h.call('/api/payments?currency=EUR,XQQ', { cookie });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      code: 'invalid_parameter',
      detail: 'currency: XQQ is not a currency code',
    });
  });
});

describe("a search's figures", () => {
  it('count exactly the rows the search lists', async () => {
    const all = await groupRows();
    const q = String(all[7]?.row.counterparty).slice(0, 4);
    const text = await (
      await h.call(`/api/payments/search?group=true&q=${encodeURIComponent(q)}`, { cookie, headers: group })
    ).text();
    const found = [...text.matchAll(/event: match\ndata: (.*)\n/g)].flatMap(
      ([, data]) => JSON.parse(data as string).data as Payment[],
    );
    const response = await h.call(`/api/payments/summary?group=true&q=${encodeURIComponent(q)}`, {
      cookie,
      headers: group,
    });
    const summary = summarySchema.parse(await response.json());
    expect(found.length).toBeGreaterThan(0);
    expect(summary.count).toBe(found.length);
    expect(summary.totals.map((t) => [t.currency, t.total])).toEqual(sums(found));
  });
});

describe('a sorted view', () => {
  it('walks the period once: scrolling it to its end asks the upstream nothing more', async () => {
    const query = 'group=true&sort=amount:desc&date_from=2026-01-01T00:00:00';
    const first = await h.call(`/api/payments?${query}&limit=25`, { cookie, headers: group });
    expect(first.status).toBe(200);
    const page = (await first.json()) as { data: Payment[]; next_cursor: string; total: number };
    expect(page.data).toHaveLength(25);
    const asked = h.recorded.length;
    let cursor: string | null = page.next_cursor;
    let rows = page.data.length;
    while (cursor) {
      const next = await h.call(`/api/payments?${query}&limit=25&cursor=${encodeURIComponent(cursor)}`, {
        cookie,
        headers: group,
      });
      const body = (await next.json()) as { data: Payment[]; next_cursor: string | null };
      rows += body.data.length;
      cursor = body.next_cursor;
    }
    expect(rows).toBe(page.total);
    expect(h.recorded.length).toBe(asked);
  });

  it('streams its progress, then its first page', async () => {
    const response = await h.call('/api/payments?sort=counterparty:asc&limit=10', {
      cookie,
      headers: { ...group, accept: 'text/event-stream' },
    });
    const text = await response.text();
    const events = [...text.matchAll(/event: (\w+)\ndata: (.*)\n/g)].map(([, event, data]) => ({
      event,
      data: JSON.parse(data as string),
    }));
    const progress = events.filter((e) => e.event === 'progress');
    expect(progress.length).toBeGreaterThan(1);
    expect(progress.map((e) => e.data.sorted)).toEqual(
      progress.map((e) => e.data.sorted).toSorted((a, b) => a - b),
    );
    expect(events.at(-1)).toMatchObject({ event: 'page', data: { total: progress.at(-1)?.data.sorted } });
    expect(events.at(-1)?.data.data).toHaveLength(10);
  });

  it('is refused above SORT_MAX_ROWS, saying how to narrow it, and a cursor of another order is refused', async () => {
    const small = h.make({ settings: { SORT_MAX_ROWS: 100 } });
    const signed = await signInOn(small.app);
    const response = await small.app.request('/api/payments?sort=amount:asc', {
      headers: { 'X-CSRF': '1', cookie: signed },
    });
    expect(response.status).toBe(422);
    const problem = (await response.json()) as { code: string; detail: string };
    expect(problem.code).toBe('sort_too_large');
    expect(problem.detail).toContain('more than 100 payments');
    expect(problem.detail).toContain('narrow it');
    await small.close();

    const page = (await (await h.call('/api/payments?sort=status:asc&limit=5', { cookie })).json()) as {
      next_cursor: string;
    };
    const other = await h.call(
      `/api/payments?sort=status:desc&limit=5&cursor=${encodeURIComponent(page.next_cursor)}`,
      {
        cookie,
      },
    );
    expect(other.status).toBe(400);
    expect(((await other.json()) as { code: string }).code).toBe('cursor_mismatch');
  });
});

describe('search results', () => {
  const matchesOf = async (query: string) => {
    const text = await (await h.call(`/api/payments/search?${query}`, { cookie, headers: group })).text();
    return [...text.matchAll(/event: match\ndata: (.*)\n/g)].flatMap(([, data]) => {
      const event = JSON.parse(data as string) as { data: Payment[]; company_ids: string[] };
      return event.data.map((row, i) => ({ row, company: event.company_ids[i] as string }));
    });
  };

  it("come in the list's order across a group's companies, not in the order the companies answer", async () => {
    const found = await matchesOf('group=true&q=INV-');
    expect(found.length).toBeGreaterThan(100);
    const listed = await listAll('group=true');
    const rank = new Map(listed.map((key, i) => [key, i]));
    const ranks = found.map(({ row, company }) => rank.get(`${company} ${String(row.id)}`) as number);
    expect(ranks).toEqual(ranks.toSorted((a, b) => a - b));
  });

  it('come in the chosen sort: amounts within a currency, largest first', async () => {
    const found = await matchesOf('group=true&q=INV-&sort=amount:desc');
    expect(found.length).toBeGreaterThan(100);
    const currencies = found.map(({ row }) => String(row.currency));
    expect(currencies).toEqual(currencies.toSorted());
    for (let i = 1; i < found.length; i++) {
      const [a, b] = [found[i - 1]?.row, found[i]?.row] as [Payment, Payment];
      if (a.currency === b.currency) expect(Number(major(a))).toBeGreaterThanOrEqual(Number(major(b)));
    }
  });
});
