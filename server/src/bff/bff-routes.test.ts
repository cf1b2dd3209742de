import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  appConfigSchema,
  type Payment,
  paymentPageSchema,
  problemSchema,
  summarySchema,
} from '@payments/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmbeddedState } from '../shared-state/index.ts';
import { InProcessDispatcher } from '../upstream/testing/in-process-dispatcher.ts';
import { CONTENT_SECURITY_POLICY } from './middleware/response-headers.ts';
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

/** Every page of a list, straight from the sandbox with our credentials. */
const walkSandbox = (company: string, filters: Record<string, string> = {}) =>
  h.walkSandbox(company, filters);

async function walkBff(company: string, filters: Record<string, string>, limit: string): Promise<Payment[]> {
  const rows: Payment[] = [];
  let cursor: string | null = null;
  do {
    const params = new URLSearchParams({ limit, ...filters });
    if (cursor) params.set('cursor', cursor);
    const response = await h.call(`/api/payments?${params}`, {
      cookie,
      headers: { 'X-Company-Id': company },
    });
    expect(response.status).toBe(200);
    const page = paymentPageSchema.parse(await response.json());
    rows.push(...page.data);
    cursor = page.next_cursor;
  } while (cursor);
  return rows;
}

/** A cell as the export writes it and parseCsv reads it back: empty for null, formula-like text behind a quote. */
/** An integer minor-unit amount as a decimal in major units, by the currency's digits (JPY 0, EUR 2, BHD 3). */
function inMajorUnits(minor: number, currency: string): string {
  const digits =
    new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  const text = String(Math.abs(minor)).padStart(digits + 1, '0');
  const decimal = digits === 0 ? text : `${text.slice(0, -digits)}.${text.slice(-digits)}`;
  return minor < 0 ? `-${decimal}` : decimal;
}

function csvText(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i] as string;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(cell);
      cell = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i += 1;
    } else cell += ch;
  }
  return rows;
}

describe('GET /api/config', () => {
  it('describes the environment and every company for an all-companies user', async () => {
    const response = await h.call('/api/config', { cookie });
    const config = appConfigSchema.parse(await response.json());
    expect(config.environment).toBe('sandbox');
    expect(config.own_company_id).toBe('acme');
    expect(config.companies.map((c) => c.id).sort()).toEqual(h.companies.map((c) => c.id).sort());
    expect(config.limits).toEqual({ min: 1, max: 100, default: 50 });
  });

  it('lists only the companies granted to a scoped user, a hidden parent shown as no parent', async () => {
    const config = appConfigSchema.parse(
      await (await h.call('/api/config', { cookie: await h.signIn('us-tree') })).json(),
    );
    expect(config.companies.map((c) => c.id).sort()).toEqual(['acme-us', 'acme-us-ca', 'acme-us-ny']);
    expect(config.companies.find((c) => c.id === 'acme-us')?.parent_id).toBeNull();
    expect(config.own_company_id).toBe('acme-us');
  });
});

describe('GET /api/payments', () => {
  it('answers a page in the shared envelope, data passed through unchanged, with no-store', async () => {
    const response = await h.call('/api/payments?limit=5', { cookie });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const page = paymentPageSchema.parse(await response.json());
    expect(page.data).toEqual((await walkSandbox('acme')).slice(0, 5));
    expect(page.has_more).toBe(true);
  });

  it('a walk of every page returns exactly what a walk of the sandbox returns', async () => {
    const filters = { status: 'COMPLETED' };
    const direct = await walkSandbox('acme-eu-de', filters);
    expect(direct.length).toBeGreaterThan(100);
    expect(await walkBff('acme-eu-de', filters, '37')).toEqual(direct);
  });

  it('refuses a cursor used with other filters or another company with cursor_mismatch, before any upstream call', async () => {
    const first = paymentPageSchema.parse(
      await (await h.call('/api/payments?limit=2&status=COMPLETED', { cookie })).json(),
    );
    const cursor = encodeURIComponent(first.next_cursor ?? '');
    h.recorded.length = 0;
    for (const [query, company] of [
      [`status=AWAITING&cursor=${cursor}`, 'acme'],
      [`cursor=${cursor}`, 'acme'],
      [`status=COMPLETED&date_from=2026-01-01T00:00:00&cursor=${cursor}`, 'acme'],
      [`status=COMPLETED&cursor=${cursor}`, 'acme-eu'],
    ] as const) {
      const response = await h.call(`/api/payments?${query}`, {
        cookie,
        headers: { 'X-Company-Id': company },
      });
      expect(response.status).toBe(400);
      expect(problemSchema.parse(await response.json()).code).toBe('cursor_mismatch');
    }
    expect(h.recorded).toHaveLength(0);
  });

  it('refuses a cursor issued to another user with cursor_mismatch', async () => {
    const first = paymentPageSchema.parse(await (await h.call('/api/payments?limit=2', { cookie })).json());
    const other = await h.signIn('us-tree');
    const response = await h.call(`/api/payments?cursor=${encodeURIComponent(first.next_cursor ?? '')}`, {
      cookie: other,
      headers: { 'X-Company-Id': 'acme-us' },
    });
    expect(problemSchema.parse(await response.json()).code).toBe('cursor_mismatch');
  });

  it('refuses a forged cursor as invalid_parameter', async () => {
    const response = await h.call(
      '/api/payments?cursor=c1.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
      { cookie },
    );
    expect(response.status).toBe(400);
    const body = problemSchema.parse(await response.json());
    expect(body).toMatchObject({ code: 'invalid_parameter', detail: 'cursor is not one this server issued' });
  });

  it('a cursor minted by one BFF process works on another sharing APP_SECRET', async () => {
    const first = paymentPageSchema.parse(await (await h.call('/api/payments?limit=3', { cookie })).json());
    const second = h.make({ parts: { logger: () => {} } });
    try {
      const response = await second.app.request(
        `/api/payments?limit=3&cursor=${encodeURIComponent(first.next_cursor ?? '')}`,
        { headers: { 'X-CSRF': '1', cookie } },
      );
      expect(response.status).toBe(200);
      const page = paymentPageSchema.parse(await response.json());
      expect(page.data).toEqual((await walkSandbox('acme')).slice(3, 6));
    } finally {
      await second.close();
    }
  });

  it.each([
    ['limit=0'],
    ['limit=101'],
    ['limit=abc'],
    ['status=COMPLETED%3BDROP'],
    [`status=${'A'.repeat(65)}`],
    ['date_from=2026-02-30T00:00:00'],
    ['date_from=2026-01-01'],
    ['page_number=2'],
    ['limit=5&limit=6'],
  ])('refuses %s with 400 invalid_parameter and forwards nothing', async (query) => {
    h.recorded.length = 0;
    const response = await h.call(`/api/payments?${query}`, { cookie });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(problemSchema.parse(await response.json()).code).toBe('invalid_parameter');
    expect(h.recorded).toHaveLength(0);
  });

  it('forwards the filters and limit it validated, and the chosen company', async () => {
    h.recorded.length = 0;
    await h.call('/api/payments?limit=7&status=AWAITING&date_from=2026-01-01T00:00:00', {
      cookie,
      headers: { 'X-Company-Id': 'acme-jp' },
    });
    expect(h.recorded[0]?.query).toEqual({
      limit: ['7'],
      status: ['AWAITING'],
      date_from: ['2026-01-01T00:00:00'],
    });
    expect(h.recorded[0]?.headers['x-company-id']).toBe('acme-jp');
  });
});

describe('date_to', () => {
  it('walks to exactly the rows of date_from..date_to, the range bound into each cursor', async () => {
    const all = await walkSandbox('acme-eu', { status: 'COMPLETED' });
    const middle = all[Math.floor(all.length / 2)]?.created_at as string;
    const walked = await walkBff('acme-eu', { status: 'COMPLETED', date_to: middle }, '17');
    expect(walked.length).toBeGreaterThan(10);
    expect(walked).toEqual(all.filter((p) => (p.created_at as string) <= middle));
    const from = all[all.length - 5]?.created_at as string;
    expect(await walkBff('acme-eu', { date_from: from, date_to: middle, status: 'COMPLETED' }, '7')).toEqual(
      all.filter((p) => (p.created_at as string) <= middle && (p.created_at as string) >= from),
    );
  });

  it('refuses a cursor used with another date_to, and a date_to before date_from', async () => {
    const first = await h.call('/api/payments?limit=5&date_to=2099-01-01T00:00:00', { cookie });
    const { next_cursor } = paymentPageSchema.parse(await first.json());
    const moved = await h.call(`/api/payments?limit=5&date_to=2098-01-01T00:00:00&cursor=${next_cursor}`, {
      cookie,
    });
    expect(moved.status).toBe(400);
    expect(problemSchema.parse(await moved.json()).code).toBe('cursor_mismatch');
    const backwards = await h.call(
      '/api/payments?date_from=2026-02-01T00:00:00&date_to=2026-01-01T00:00:00',
      {
        cookie,
      },
    );
    expect(backwards.status).toBe(400);
    expect(problemSchema.parse(await backwards.json()).detail).toBe('date_to: must not be before date_from');
  });

  it('answers 422 range_too_wide when more whole pages than allowed are newer than date_to', async () => {
    const narrow = h.make({ settings: { DATE_TO_MAX_SKIP_PAGES: 3 } });
    try {
      const cookie = await signInOn(narrow.app);
      const response = await narrow.app.request('/api/payments?limit=10&date_to=2000-01-01T00:00:00', {
        headers: { 'X-CSRF': '1', cookie },
      });
      expect(response.status).toBe(422);
      expect(await response.json()).toMatchObject({
        code: 'range_too_wide',
        detail: expect.stringMatching(/date_from/),
      });
    } finally {
      await narrow.close();
    }
  });

  it('exports exactly the rows of the range', async () => {
    const all = await walkSandbox('acme-us', {});
    const cut = all[Math.floor(all.length / 3)]?.created_at as string;
    const response = await h.call(`/api/payments/export.csv?date_to=${cut}`, {
      cookie,
      headers: { 'X-Company-Id': 'acme-us' },
    });
    const [, ...rows] = parseCsv(await response.text());
    expect(rows.map((row) => row[0])).toEqual(
      all.filter((p) => (p.created_at as string) <= cut).map((p) => p.id),
    );
  });
});

describe('GET /api/payments/summary', () => {
  /** The sandbox's own figures for a company, computed here from a direct walk. */
  async function sandboxFigures(company: string, filters: Record<string, string> = {}) {
    const rows = await walkSandbox(company, filters);
    const byStatus = new Map<string, number>();
    const minor = new Map<string, bigint>();
    for (const row of rows) {
      byStatus.set(row.status as string, (byStatus.get(row.status as string) ?? 0) + 1);
      minor.set(
        row.currency as string,
        (minor.get(row.currency as string) ?? 0n) + BigInt(row.amount as number),
      );
    }
    return { rows, byStatus, minor };
  }

  it('answers the count, the counts per status and the exact totals per currency the sandbox holds', async () => {
    const { rows, byStatus, minor } = await sandboxFigures('acme-eu');
    const response = await h.call('/api/payments/summary', {
      cookie,
      headers: { 'X-Company-Id': 'acme-eu' },
    });
    expect(response.status).toBe(200);
    const summary = summarySchema.parse(await response.json());
    expect(summary.count).toBe(rows.length);
    expect(summary.complete).toBe(true);
    expect(new Map(summary.by_status.map((s) => [s.status, s.count]))).toEqual(byStatus);
    for (const total of summary.totals)
      expect(total.total).toBe(inMajorUnits(Number(minor.get(total.currency)), total.currency));
    expect(summary.days.reduce((sum, day) => sum + day.count, 0)).toBe(rows.length);
    expect(summary.uninterpreted).toBe(0);
  });

  it('streams progress events, then the summary, to a client that asks for an event stream', async () => {
    const response = await h.call('/api/payments/summary', {
      cookie,
      headers: { 'X-Company-Id': 'acme', accept: 'text/event-stream' },
    });
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const text = await response.text();
    const events = [...text.matchAll(/event: (\w+)\ndata: (.*)\n/g)].map(([, event, data]) => ({
      event,
      data: JSON.parse(data as string),
    }));
    const progress = events.filter((e) => e.event === 'progress');
    expect(progress.length).toBeGreaterThan(3);
    expect(progress.map((e) => e.data.counted)).toEqual(
      [...progress.map((e) => e.data.counted)].sort((a, b) => a - b),
    );
    const last = events.at(-1);
    expect(last?.event).toBe('summary');
    expect(summarySchema.parse(last?.data).count).toBe((await walkSandbox('acme')).length);
  });

  it('serves the same question again from its cache, without the upstream', async () => {
    const ask = () =>
      h.call('/api/payments/summary?status=FAILED', { cookie, headers: { 'X-Company-Id': 'acme-us' } });
    const first = await (await ask()).json();
    h.recorded.length = 0;
    expect(await (await ask()).json()).toEqual(first);
    expect(h.recorded).toHaveLength(0);
  });

  it('stops at the row cap and says the figures are not complete', async () => {
    // A store of its own: the harness's holds the uncapped summary of the same question.
    const capped = h.make({
      settings: { SUMMARY_MAX_ROWS: 150 },
      parts: { sharedState: createEmbeddedState() },
    });
    try {
      const cookie = await signInOn(capped.app);
      const response = await capped.app.request('/api/payments/summary', {
        headers: { 'X-CSRF': '1', cookie },
      });
      const summary = summarySchema.parse(await response.json());
      expect(summary.complete).toBe(false);
      expect(summary.count).toBeGreaterThanOrEqual(150);
      expect(summary.count).toBeLessThan(300);
    } finally {
      await capped.close();
    }
  });

  it('applies date_to and status like the list does', async () => {
    const all = await walkSandbox('acme-eu', { status: 'AWAITING' });
    const cut = all[Math.floor(all.length / 2)]?.created_at as string;
    const response = await h.call(`/api/payments/summary?status=AWAITING&date_to=${cut}`, {
      cookie,
      headers: { 'X-Company-Id': 'acme-eu' },
    });
    expect(summarySchema.parse(await response.json()).count).toBe(
      all.filter((p) => (p.created_at as string) <= cut).length,
    );
  });

  it("cancels a user's running summary when the same user asks for another", async () => {
    const slow = await h.call('/api/payments/summary?status=COMPLETED', {
      cookie,
      headers: { 'X-Company-Id': 'acme', accept: 'text/event-stream' },
    });
    const reader = slow.body?.getReader();
    await reader?.read();
    await h.call('/api/payments/summary?status=AWAITING', { cookie, headers: { 'X-Company-Id': 'acme' } });
    let text = '';
    for (;;) {
      const chunk = await reader?.read();
      if (!chunk || chunk.done) break;
      text += new TextDecoder().decode(chunk.value);
    }
    expect(text).not.toContain('event: summary');
    // It says why: a newer count replaced it (409 summary_superseded), not that the upstream failed.
    expect(text).toContain('event: error');
    expect(text).toContain('"code":"summary_superseded"');
  });

  it('answers a superseded question that waits for JSON with 409 summary_superseded', async () => {
    // An upstream 80 ms away, so the first question is still being counted when the second comes.
    const slow = h.make({
      upstream: {
        dispatcher: new InProcessDispatcher(async (request) => {
          await new Promise((resolve) => setTimeout(resolve, 80));
          return h.sandbox.app.fetch(request);
        }),
      },
      parts: { sharedState: createEmbeddedState() },
    });
    try {
      const own = await signInOn(slow.app);
      const ask = (status: string) =>
        slow.app.request(`/api/payments/summary?status=${status}`, {
          headers: { 'X-CSRF': '1', cookie: own, 'X-Company-Id': 'acme' },
        });
      const older = ask('FAILED');
      await new Promise((resolve) => setTimeout(resolve, 30));
      expect((await ask('AWAITING')).status).toBe(200);
      const answer = await older;
      expect(answer.status).toBe(409);
      expect(problemSchema.parse(await answer.json()).code).toBe('summary_superseded');
    } finally {
      await slow.close();
    }
  });

  it('lets people asking the same question at once share one walk of the upstream', async () => {
    const fresh = h.make({ parts: { sharedState: createEmbeddedState() } });
    try {
      const ask = async (who: string) => {
        const cookieOf = who === 'demo' ? await signInOn(fresh.app) : await signInOn(fresh.app, 'eu-only');
        return fresh.app.request('/api/payments/summary?status=COMPLETED', {
          headers: { 'X-CSRF': '1', cookie: cookieOf, 'X-Company-Id': 'acme-eu' },
        });
      };
      h.recorded.length = 0;
      const answers = await Promise.all([ask('demo'), ask('eu-only')]);
      const [one, two] = await Promise.all(answers.map((a) => a.json()));
      expect(one).toEqual(two);
      const pages = Math.ceil((await walkSandbox('acme-eu', { status: 'COMPLETED' })).length / 100);
      h.recorded.splice(h.recorded.length - pages, pages);
      // Both answered by one walk: its pages, and not a request more.
      expect(h.recorded.filter((r) => r.query.limit?.[0] === '100')).toHaveLength(0);
    } finally {
      await fresh.close();
    }
  });

  it('counts again when asked fresh, and says when the count began', async () => {
    const ask = (fresh: boolean) =>
      h.call(`/api/payments/summary?status=FAILED${fresh ? '&fresh=true' : ''}`, {
        cookie,
        headers: { 'X-Company-Id': 'acme-us' },
      });
    const first = summarySchema.parse(await (await ask(false)).json());
    h.recorded.length = 0;
    expect(summarySchema.parse(await (await ask(false)).json())).toEqual(first);
    expect(h.recorded).toHaveLength(0);
    const again = summarySchema.parse(await (await ask(true)).json());
    expect(h.recorded.length).toBeGreaterThan(0);
    expect(Date.parse(again.as_of ?? '')).toBeGreaterThanOrEqual(Date.parse(first.as_of ?? ''));
    expect(again.count).toBe(first.count);
  });

  it('gives each user WALKS_PER_USER walks at once: one more is refused with 429 and Retry-After', async () => {
    const narrow = h.make({ settings: { WALKS_PER_USER: 2, EXPORT_MAX_PER_USER: 5 } });
    try {
      const own = await signInOn(narrow.app);
      const headers = { 'X-CSRF': '1', cookie: own, 'X-Company-Id': 'acme' };
      // Two downloads read slowly hold both places.
      const held = await Promise.all([
        narrow.app.request('/api/payments/export.csv', { headers }),
        narrow.app.request('/api/payments/export.csv?status=FAILED', { headers }),
      ]);
      expect(held.map((r) => r.status)).toEqual([200, 200]);
      const third = await narrow.app.request('/api/payments?date_to=2026-01-01T00:00:00', { headers });
      expect(third.status).toBe(429);
      expect(third.headers.get('retry-after')).toBe('5');
      expect(problemSchema.parse(await third.json()).detail).toMatch(/2 counts, searches or downloads/);
      // A page of the list that walks nothing is still served.
      expect((await narrow.app.request('/api/payments?limit=5', { headers })).status).toBe(200);
      for (const r of held) await r.body?.cancel();
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(
        (await narrow.app.request('/api/payments?date_to=2026-01-01T00:00:00', { headers })).status,
      ).toBe(200);
    } finally {
      await narrow.close();
    }
  });
});

describe('UPSTREAM_INDEXER=on', () => {
  it('walks every company in the background, so that a question into the past starts at a remembered position', async () => {
    const logs: string[] = [];
    const indexing = h.make({
      settings: { UPSTREAM_INDEXER: 'on' },
      parts: { sharedState: createEmbeddedState(), logger: (line) => logs.push(line) },
    });
    try {
      const indexed = () => logs.map((l) => JSON.parse(l)).filter((l) => l.msg === 'indexed' && l.ok);
      for (let i = 0; i < 200 && indexed().length < h.companies.length; i++)
        await new Promise((resolve) => setTimeout(resolve, 25));
      expect(
        indexed()
          .map((l) => l.company)
          .sort(),
      ).toEqual(h.companies.map((c) => c.id).sort());
      const own = await signInOn(indexing.app);
      h.recorded.length = 0;
      const response = await indexing.app.request('/api/payments?limit=5&date_to=2024-12-31T00:00:00', {
        headers: { 'X-CSRF': '1', cookie: own, 'X-Company-Id': 'acme' },
      });
      expect(response.status).toBe(200);
      expect(h.recorded.length).toBeLessThanOrEqual(2);
    } finally {
      await indexing.close();
    }
  });
});

describe('group view', () => {
  const byOrder = (a: Payment, b: Payment) =>
    (b.created_at as string).localeCompare(a.created_at as string) ||
    String(b.id).localeCompare(String(a.id));

  it('merges the company and every descendant into one list, newest first, each row once, with its company', async () => {
    const tree = ['acme-eu', 'acme-eu-de', 'acme-eu-fr'];
    const expected = (
      await Promise.all(tree.map((company) => walkSandbox(company, { status: 'COMPLETED' })))
    ).flat();
    const rows: Payment[] = [];
    const companies: string[] = [];
    let cursor: string | null = null;
    let requests = 0;
    let pages = 0;
    do {
      const params = new URLSearchParams({ limit: '23', status: 'COMPLETED', group: 'true' });
      if (cursor) params.set('cursor', cursor);
      h.recorded.length = 0;
      const response = await h.call(`/api/payments?${params}`, {
        cookie,
        headers: { 'X-Company-Id': 'acme-eu' },
      });
      expect(response.status).toBe(200);
      const body = (await response.json()) as {
        data: Payment[];
        company_ids: string[];
        next_cursor: string | null;
      };
      // A page reads the companies whose next rows it may show, not every company again.
      expect(h.recorded.length).toBeLessThanOrEqual(2 * tree.length);
      requests += h.recorded.length;
      pages += 1;
      rows.push(...body.data);
      companies.push(...body.company_ids);
      cursor = body.next_cursor;
    } while (cursor);
    expect(rows).toEqual([...expected].sort(byOrder));
    // Each company's pages once, and a company's page cut short by the page shown read again by the next.
    const companyPages = (
      await Promise.all(
        tree.map(async (company) =>
          Math.ceil((await walkSandbox(company, { status: 'COMPLETED' })).length / 23),
        ),
      )
    ).reduce((a, b) => a + b, 0);
    expect(requests).toBeLessThanOrEqual(companyPages + pages * tree.length);
    expect(companies).toEqual(rows.map((row) => row.company_id));
  });

  it('never asks for a company outside the user scope', async () => {
    const usTree = await h.signIn('eu-only');
    h.recorded.length = 0;
    const response = await h.call('/api/payments?group=true', {
      cookie: usTree,
      headers: { 'X-Company-Id': 'acme-eu' },
    });
    expect(response.status).toBe(200);
    expect(new Set(h.recorded.map((r) => r.headers['x-company-id']))).toEqual(new Set(['acme-eu']));
  });

  it('sums and exports the group like its list', async () => {
    const tree = ['acme-us', 'acme-us-ny', 'acme-us-ca'];
    const all = (await Promise.all(tree.map((company) => walkSandbox(company)))).flat().sort(byOrder);
    const cut = all[Math.floor(all.length / 2)]?.created_at as string;
    const inRange = all.filter((p) => (p.created_at as string) <= cut);
    const headers = { 'X-Company-Id': 'acme-us' };
    const summary = summarySchema.parse(
      await (await h.call(`/api/payments/summary?group=true&date_to=${cut}`, { cookie, headers })).json(),
    );
    expect(summary.count).toBe(inRange.length);
    const csv = await h.call(`/api/payments/export.csv?group=true&date_to=${cut}`, { cookie, headers });
    expect(csv.headers.get('content-disposition')).toMatch(/payments_acme-us_group_/);
    const [header, ...rows] = parseCsv(await csv.text());
    expect(header?.slice(0, 3)).toEqual(['Payment ID', 'Company ID', 'Company']);
    const names = new Map(h.companies.map((company) => [company.id, company.name]));
    expect(rows.map((row) => row.slice(0, 3))).toEqual(
      inRange.map((p) => [p.id, p.company_id, names.get(p.company_id as string)]),
    );
  });

  it('binds the group to its cursor: a group cursor is refused without group=true', async () => {
    const first = await h.call('/api/payments?group=true&limit=5', {
      cookie,
      headers: { 'X-Company-Id': 'acme' },
    });
    const { next_cursor } = paymentPageSchema.parse(await first.json());
    const plain = await h.call(`/api/payments?limit=5&cursor=${next_cursor}`, {
      cookie,
      headers: { 'X-Company-Id': 'acme' },
    });
    expect(plain.status).toBe(400);
    expect(problemSchema.parse(await plain.json()).code).toBe('cursor_mismatch');
  });
});

describe('GET /api/payments/export.csv', () => {
  it('streams the whole filtered list as CSV holding the same rows as a sandbox walk', async () => {
    // A store of its own: nothing remembered, so the walk is one part, each page read once.
    const fresh = h.make({ parts: { sharedState: createEmbeddedState() } });
    const own = await signInOn(fresh.app);
    h.recorded.length = 0;
    const response = await fresh.app.request('/api/payments/export.csv?status=COMPLETED', {
      headers: { 'X-CSRF': '1', cookie: own, 'X-Company-Id': 'acme' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toMatch(
      /^attachment; filename="payments_acme_COMPLETED_all_as_of_\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const rows = parseCsv(await response.text());
    const [header, ...body] = rows;
    expect(header).toEqual([
      'Payment ID',
      'Company ID',
      'Created (UTC)',
      'Created, UTC (ISO 8601)',
      'Status',
      'Amount',
      'Currency',
      'Amount as sent',
      'Description',
      'Counterparty',
      'Reference',
      // Always there with all columns: a field first met on a later page keeps its value in it.
      'Other fields',
    ]);
    const direct = await walkSandbox('acme', { status: 'COMPLETED' });
    expect(direct.length).toBeGreaterThan(100);
    // Every cell of every row from the sandbox's record: its zone-less UTC time with its offset and in UTC, its
    // minor-unit amount in major units beside the raw integer, text that could be a formula neutralised; the
    // sandbox's records all have the same fields, so other_fields is empty.
    expect(body).toEqual(
      direct.map((p) => [
        csvText(p.id),
        csvText(p.company_id),
        `${p.created_at}+00:00`,
        `${p.created_at}.000Z`,
        csvText(p.status),
        inMajorUnits(p.amount as number, p.currency as string),
        csvText(p.currency),
        String(p.amount),
        csvText(p.description),
        csvText(p.counterparty),
        csvText(p.reference),
        '',
      ]),
    );
    expect(h.recorded.length).toBe(Math.ceil(direct.length / 100));
    expect(h.recorded.every((r) => r.query.limit?.[0] === '100')).toBe(true);
    await fresh.close();
  });

  it('writes exactly the columns the user sees, in their order, headed by their labels', async () => {
    const response = await h.call(
      '/api/payments/export.csv?status=FAILED&columns=id,created_at,amount,currency,counterparty',
      {
        cookie,
        headers: { 'X-Company-Id': 'acme-eu' },
      },
    );
    const [header, first] = parseCsv(await response.text());
    expect(header).toEqual(['Payment ID', 'Created (UTC)', 'Amount', 'Currency', 'Counterparty']);
    expect(first).toHaveLength(5);
    const refused = await h.call('/api/payments/export.csv?columns=a,,b', { cookie });
    expect(refused.status).toBe(400);
  });

  it('names the file after the company, the filters and the range, or the date where the BFF runs, not in UTC', async () => {
    // 02:30 UTC on 1 March is still 28 February in New York.
    const bff = h.make({
      settings: { PAYMENTS_TIME_ZONE: 'America/New_York' },
      parts: { now: () => Date.parse('2026-03-01T02:30:00Z') },
    });
    try {
      const own = await signInOn(bff.app);
      const response = await bff.app.request('/api/payments/export.csv', {
        method: 'HEAD',
        headers: { 'X-CSRF': '1', cookie: own, 'X-Company-Id': 'acme-eu-de' },
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-disposition')).toBe(
        'attachment; filename="payments_acme-eu-de_all_as_of_2026-02-28.csv"',
      );
      const filtered = await bff.app.request(
        '/api/payments/export.csv?group=true&status=COMPLETED&date_from=2026-01-01T00:00:00&date_to=2026-01-31T23:59:59',
        { method: 'HEAD', headers: { 'X-CSRF': '1', cookie: own, 'X-Company-Id': 'acme-eu' } },
      );
      expect(filtered.headers.get('content-disposition')).toBe(
        'attachment; filename="payments_acme-eu_group_COMPLETED_2026-01-01_to_2026-01-31_America-New_York.csv"',
      );
      // January counted in Berlin, the zone the file's times are in: its days there, that zone named
      const berlin = await bff.app.request(
        '/api/payments/export.csv?tz=Europe/Berlin&date_from=2025-12-31T18:00:00&date_to=2026-01-31T17:59:59',
        { method: 'HEAD', headers: { 'X-CSRF': '1', cookie: own, 'X-Company-Id': 'acme-eu' } },
      );
      expect(berlin.headers.get('content-disposition')).toBe(
        'attachment; filename="payments_acme-eu_2026-01-01_to_2026-01-31_Europe-Berlin.csv"',
      );
    } finally {
      await bff.close();
    }
  });

  it('writes created_at in the zone the user shows times in (tz), names it in the header, and refuses an unknown zone', async () => {
    const response = await h.call('/api/payments/export.csv?status=FAILED&tz=America/New_York', {
      cookie,
      headers: { 'X-Company-Id': 'acme-eu' },
    });
    expect(response.status).toBe(200);
    const [header, ...rows] = parseCsv(await response.text());
    expect(header?.slice(2, 4)).toEqual(['Created (America/New_York)', 'Created, UTC (ISO 8601)']);
    expect(rows.length).toBeGreaterThan(0);
    for (const [, , local = '', utc = ''] of rows) {
      // The same instant, written as New York's wall time with its offset (-05:00 or -04:00 in summer).
      expect(local).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}-0[45]:00$/);
      expect(Date.parse(local)).toBe(Date.parse(utc));
    }
    const refused = await h.call('/api/payments/export.csv?tz=Mars/Olympus', { cookie });
    expect(refused.status).toBe(400);
    expect(problemSchema.parse(await refused.json()).code).toBe('invalid_parameter');
  });

  it('answers HEAD with the download headers and no walk of the upstream', async () => {
    h.recorded.length = 0;
    const response = await h.call('/api/payments/export.csv?status=COMPLETED', { cookie, method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="payments_acme_/);
    expect(await response.text()).toBe('');
    expect(h.recorded).toHaveLength(0);
  });

  it('admits two downloads per user at once: a third gets 429 with Retry-After, another user is still served', async () => {
    const running = [
      await h.call('/api/payments/export.csv', { cookie }),
      await h.call('/api/payments/export.csv', { cookie }),
    ];
    expect(running.map((r) => r.status)).toEqual([200, 200]);
    const third = await h.call('/api/payments/export.csv', { cookie });
    expect(third.status).toBe(429);
    expect(third.headers.get('retry-after')).toBe('10');
    expect(problemSchema.parse(await third.json())).toMatchObject({ code: 'rate_limited' });
    const other = await h.call('/api/payments/export.csv', { cookie: await h.signIn('eu-only') });
    expect(other.status).toBe(200);
    // A download that ends, however it ends, frees its place.
    await running[0]?.body?.cancel();
    const again = await h.call('/api/payments/export.csv', { cookie });
    expect(again.status).toBe(200);
    for (const response of [running[1], other, again]) await response?.body?.cancel();
  });

  it('refuses list-only parameters such as cursor and limit', async () => {
    const response = await h.call('/api/payments/export.csv?limit=5', { cookie });
    expect(response.status).toBe(400);
  });
});

describe('request log', () => {
  it('writes one JSON line per request: method, path without query, status, duration, attempts, user, id', async () => {
    h.logs.length = 0;
    const response = await h.call('/api/payments?limit=2&status=COMPLETED', { cookie });
    const lines = h.logs.map((line) => JSON.parse(line)).filter((line) => line.msg === 'request');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      method: 'GET',
      path: '/api/payments',
      status: 200,
      upstream_attempts: 1,
      user: 'demo',
      id: response.headers.get('x-request-id'),
    });
    expect(typeof lines[0].duration_ms).toBe('number');
    expect(h.logs.join('\n')).not.toContain('status=COMPLETED');
  });
});

describe('health, security headers, SPA', () => {
  it('/healthz answers ok and /readyz reports the upstream reachable', async () => {
    expect(await (await h.bff.app.request('/healthz')).json()).toEqual({ status: 'ok' });
    const ready = await h.bff.app.request('/readyz');
    expect(ready.status).toBe(200);
  });

  it('/readyz caches its upstream probe for a few seconds', async () => {
    const bff = h.make();
    try {
      h.recorded.length = 0;
      for (let i = 0; i < 5; i += 1) expect((await bff.app.request('/readyz')).status).toBe(200);
      expect(h.recorded).toHaveLength(1);
      expect(h.recorded[0]?.query.limit).toEqual(['1']);
    } finally {
      await bff.close();
    }
  });

  it('/readyz probes again when the clock steps back instead of serving the cached answer until it catches up', async () => {
    let clock = Date.parse('2026-11-23T10:00:00Z');
    const bff = h.make({ parts: { now: () => clock } });
    try {
      h.recorded.length = 0;
      expect((await bff.app.request('/readyz')).status).toBe(200);
      clock -= 3_600_000;
      expect((await bff.app.request('/readyz')).status).toBe(200);
      expect((await bff.app.request('/readyz')).status).toBe(200);
      expect(h.recorded).toHaveLength(2);
    } finally {
      await bff.close();
    }
  });

  it('/readyz answers 503 with the upstream problem when the credentials are refused', async () => {
    const broken = h.make({ upstream: { credentials: { secretId: 'nobody', secretPassword: 'nothing' } } });
    try {
      const response = await broken.app.request('/readyz');
      expect(response.status).toBe(503);
      expect(problemSchema.parse(await response.json()).code).toBe('upstream_rejected_credentials');
    } finally {
      await broken.close();
    }
  });

  it('every response carries our security headers, and no data response may be stored', async () => {
    const read = async (response: Response) => {
      await response.arrayBuffer();
      return response;
    };
    const data = [
      await read(await h.call('/api/payments?limit=1', { cookie })),
      await read(await h.call('/api/payments/export.csv?status=FAILED', { cookie })),
      await read(await h.call('/api/payments?limit=abc', { cookie })),
      await read(await h.call('/api/config', { cookie })),
      await read(await h.call('/api/config')),
      await read(await h.bff.app.request('/api/config')),
      await read(await h.call('/api/nope', { cookie })),
      await read(await h.bff.app.request('/healthz')),
      await read(await h.bff.app.request('/readyz')),
    ];
    expect(data.map((response) => response.status)).toEqual([200, 200, 400, 200, 401, 403, 404, 200, 200]);
    const spa = await read(await h.bff.app.request('/'));
    for (const response of [...data, spa]) {
      expect(response.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('referrer-policy')).toBe('no-referrer');
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      expect(response.headers.get('cross-origin-opener-policy')).toBe('same-origin');
      expect(response.headers.get('cross-origin-resource-policy')).toBe('same-origin');
      expect(response.headers.get('permissions-policy')).toBe(
        'camera=(), microphone=(), geolocation=(), payment=()',
      );
    }
    for (const response of data) expect(response.headers.get('cache-control')).toBe('no-store');
    expect(spa.headers.get('cache-control')).toBe('no-cache');
    const csp = (data[0]?.headers.get('content-security-policy') ?? '').split('; ');
    for (const directive of [
      "default-src 'self'",
      "script-src 'self'",
      "frame-ancestors 'none'",
      "object-src 'none'",
      "base-uri 'none'",
    ])
      expect(csp).toContain(directive);
    expect(csp.join('; ')).not.toMatch(/unsafe-inline|unsafe-eval/);
  });

  it('a page, whose headers are set in one go, carries exactly the headers of any other data response', async () => {
    const names = (response: Response) =>
      [...response.headers.keys()].filter((name) => name !== 'content-length' && name !== 'content-type');
    const page = await h.call('/api/payments?limit=1', { cookie });
    const config = await h.call('/api/config', { cookie });
    expect(page.status).toBe(200);
    expect(names(page)).toEqual(names(config));
    for (const name of names(config).filter((n) => n !== 'x-request-id'))
      expect(page.headers.get(name)).toBe(config.headers.get(name));
    expect(page.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const overHttps = await h.call('https://bff.test/api/payments?limit=1', {
      cookie: cookie.replace(/^session=/, '__Host-session='),
    });
    expect(overHttps.status).toBe(200);
    expect(overHttps.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
  });

  it('without a built SPA, / answers 503 saying to run pnpm build', async () => {
    const response = await h.bff.app.request('/', { headers: { accept: 'text/html' } });
    expect(response.status).toBe(503);
    expect(await response.text()).toContain('pnpm build');
  });

  it('unknown /api routes are 404 problem+json, never the SPA', async () => {
    const response = await h.call('/api/nope', { cookie, headers: { accept: 'text/html' } });
    expect(response.status).toBe(404);
    expect(problemSchema.parse(await response.json()).code).toBe('not_found');
  });
});

describe('the built SPA', () => {
  it('serves files of the build, hashed assets cached for a year, and index.html for deep links', async () => {
    const root = mkdtempSync(join(tmpdir(), 'bff-web-'));
    const dist = join(root, 'dist');
    mkdirSync(join(dist, 'assets'), { recursive: true });
    writeFileSync(
      join(dist, 'index.html'),
      '<!doctype html><script type="module" src="/assets/app-1.js"></script>',
    );
    writeFileSync(join(dist, 'assets', 'app-1.js'), 'console.log(1)');
    writeFileSync(join(dist, '..', 'outside-secret.txt'), 'outside');
    const bff = h.make({ settings: { WEB_DIST_DIR: dist } });
    try {
      const index = await bff.app.request('/');
      expect(index.status).toBe(200);
      expect(index.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(index.headers.get('cache-control')).toBe('no-cache');
      const deep = await bff.app.request('/payments/acme?status=FAILED', {
        headers: { accept: 'text/html' },
      });
      expect(await deep.text()).toContain('/assets/app-1.js');
      const asset = await bff.app.request('/assets/app-1.js');
      expect(asset.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
      expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect((await bff.app.request('/assets/missing.js', { headers: { accept: 'text/html' } })).status).toBe(
        404,
      );
      for (const path of [
        '/../outside-secret.txt',
        '/%2e%2e/outside-secret.txt',
        '/assets/../../outside-secret.txt',
      ]) {
        expect(await (await bff.app.request(path)).text()).not.toContain('outside');
      }
    } finally {
      await bff.close();
      rmSync(root, { recursive: true, force: true });
    }
  });
});
