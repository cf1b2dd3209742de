import { createHash } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from './create-sandbox.ts';
import { SEED_ANCHOR_SECONDS } from './payment-store.ts';
import { page, walk } from './testing/test-requests.ts';

const opened: Sandbox[] = [];
function open(options: Parameters<typeof createSandbox>[0]): Sandbox {
  const sandbox = createSandbox(options);
  opened.push(sandbox);
  return sandbox;
}
afterAll(() => {
  for (const sandbox of opened) sandbox.close();
});

/** A digest of every stored payment, in id order. */
function digest(sandbox: Sandbox): string {
  const rows = sandbox.store.db.prepare('SELECT * FROM payments ORDER BY seq').all();
  return createHash('sha256').update(JSON.stringify(rows)).digest('hex');
}

const count = (sandbox: Sandbox, sql: string) => (sandbox.store.db.prepare(sql).get() as { n: number }).n;

describe('seeded data', () => {
  const one = open({ seedCount: 3_000, seed: 42 });

  it('is deterministic: the same seed and count give the same rows and the same pages, whatever the clock', async () => {
    const again = open({ seedCount: 3_000, seed: 42, now: () => new Date('2031-05-05T00:00:00Z') });
    expect(digest(again)).toBe(digest(one));
    const a = await page(one.app, { company: 'acme-eu', query: { limit: '100' } });
    const b = await page(again.app, { company: 'acme-eu', query: { limit: '100' } });
    expect(b.data).toEqual(a.data);
  });

  it('seeds 50,000 payments when no count is given', () => {
    expect(count(open({}), 'SELECT count(*) AS n FROM payments')).toBe(50_000);
  });

  it('another seed gives other rows', () => {
    expect(digest(open({ seedCount: 3_000, seed: 43 }))).not.toBe(digest(one));
  });

  it('lies in the two years before the fixed anchor', () => {
    const range = one.store.db
      .prepare('SELECT min(created) AS low, max(created) AS high FROM payments')
      .get() as {
      low: number;
      high: number;
    };
    expect(range.high).toBeLessThan(SEED_ANCHOR_SECONDS);
    expect(range.low).toBeGreaterThanOrEqual(SEED_ANCHOR_SECONDS - 730 * 86_400);
    expect(range.high - range.low).toBeGreaterThan(700 * 86_400);
  });

  it("lies in the two years before the seed end it is given: a first run has last month's payments", () => {
    const end = Date.UTC(2027, 2, 4, 5, 6, 7) / 1000;
    const later = open({ seedCount: 3_000, seedEnd: new Date(end * 1000) });
    const range = later.store.db
      .prepare('SELECT min(created) AS low, max(created) AS high FROM payments')
      .get() as { low: number; high: number };
    expect(range.high).toBeLessThan(end);
    expect(range.low).toBeGreaterThanOrEqual(end - 730 * 86_400);
    // 3,000 rows over two years: the last 30 days hold about 120 of them.
    const lastMonth = count(
      later,
      `SELECT count(*) AS n FROM payments WHERE created >= ${end - 30 * 86_400}`,
    );
    expect(lastMonth).toBeGreaterThan(50);
  });

  it('spreads rows unevenly over every company of both tenants', () => {
    const perCompany = one.store.db
      .prepare('SELECT company, count(*) AS n FROM payments GROUP BY company')
      .all() as { n: number }[];
    expect(perCompany).toHaveLength(14);
    const sizes = perCompany.map((row) => row.n);
    expect(Math.max(...sizes) / Math.min(...sizes)).toBeGreaterThan(10);
  });

  it('has several rows of one company sharing a second, so the id tie-break matters', () => {
    const shared = count(
      one,
      'SELECT count(*) AS n FROM (SELECT 1 FROM payments GROUP BY company, created HAVING count(*) > 1)',
    );
    expect(shared).toBeGreaterThan(50);
  });

  it('uses the four statuses and EUR, USD, GBP and JPY with integer amounts', () => {
    const statuses = one.store.db.prepare('SELECT DISTINCT status FROM payments ORDER BY 1').all();
    expect(statuses.map((row) => row.status)).toEqual(['AWAITING', 'CANCELLED', 'COMPLETED', 'FAILED']);
    const currencies = one.store.db.prepare('SELECT DISTINCT currency FROM payments ORDER BY 1').all();
    expect(currencies.map((row) => row.currency)).toEqual(['EUR', 'GBP', 'JPY', 'USD']);
    expect(
      count(one, "SELECT count(*) AS n FROM payments WHERE typeof(amount) <> 'integer' OR amount < 1"),
    ).toBe(0);
  });

  it('serves descriptions with commas, quotes, newlines, formula prefixes and non-Latin text', async () => {
    const { pages } = await walk(one.app, { query: { limit: '100' } });
    const texts = pages.flatMap((p) =>
      p.data.flatMap((row) => [row.description ?? '', row.counterparty ?? '']),
    );
    for (const test of [
      /,/,
      /"/,
      /\n/,
      /^=/,
      /^\+/,
      /^-/,
      /^@/,
      /[^\p{ASCII}]/u,
      /[\u3040-\u30ff\u4e00-\u9fff]/,
    ]) {
      expect(
        texts.some((text) => test.test(text)),
        String(test),
      ).toBe(true);
    }
    expect(pages.flatMap((p) => p.data).some((row) => row.description === null)).toBe(true);
  });

  it('seedWeights puts rows only where asked', () => {
    const bench = open({ seedCount: 1_000, seedWeights: { acme: 9, 'globex-de': 1 } });
    const companies = bench.store.db
      .prepare(
        'SELECT c.external_id AS id, count(*) AS n FROM payments p JOIN companies c ON c.id = p.company GROUP BY 1 ORDER BY 1',
      )
      .all() as { id: string; n: number }[];
    expect(companies.map((row) => row.id)).toEqual(['acme', 'globex-de']);
    expect(companies[0]?.n).toBeGreaterThan(800);
  });

  it('refuses bad options with a message naming them', () => {
    expect(() => createSandbox({ seedCount: -1 })).toThrow(/seedCount/);
    expect(() => createSandbox({ seedCount: 1.5 })).toThrow(/seedCount/);
    expect(() => createSandbox({ liveRate: -1 })).toThrow(/liveRate/);
    expect(() => createSandbox({ seedWeights: { nope: 1 } })).toThrow(/nope/);
    expect(() => createSandbox({ seedWeights: { acme: 0 } })).toThrow(/seedWeights/);
    expect(() => createSandbox({ faults: { error500: 2 } })).toThrow(/error500/);
    expect(() => createSandbox({ sunset: new Date('nope') })).toThrow(/sunset/);
  });

  it('with seedCount 0, every list is one empty last page', async () => {
    const empty = open({ seedCount: 0 });
    expect(await page(empty.app)).toEqual({ data: [], next_cursor: null, has_more: false });
  });
});

describe('new payments while running', () => {
  it('insertPayments adds rows dated by the clock, with ids above all others, at the top of the lists', async () => {
    const clock = new Date('2026-11-20T10:00:00Z');
    const sandbox = open({ seedCount: 1_000, now: () => clock, seedWeights: { acme: 1 } });
    const before = await page(sandbox.app, { query: { limit: '1' } });
    sandbox.insertPayments(30);
    const after = await page(sandbox.app, { query: { limit: '100' } });
    const fresh = after.data.filter((row) => row.created_at === '2026-11-20T10:00:00');
    expect(fresh.length).toBeGreaterThan(0);
    expect(after.data.slice(0, fresh.length)).toEqual(fresh);
    expect(fresh.every((row) => row.id > (before.data[0]?.id ?? ''))).toBe(true);
    expect(count(sandbox, 'SELECT count(*) AS n FROM payments')).toBe(1_030);
  });

  it('with a clock behind the data, new rows take the newest second and still come first', async () => {
    const sandbox = open({ seedCount: 500, now: () => new Date('2001-01-01T00:00:00Z') });
    const newestSecond = sandbox.store.db
      .prepare("SELECT strftime('%Y-%m-%dT%H:%M:%S', max(created), 'unixepoch') AS at FROM payments")
      .get() as { at: string };
    const newest = await page(sandbox.app, { query: { limit: '1' } });
    sandbox.insertPayments(40);
    const after = await page(sandbox.app, { query: { limit: '100' } });
    const fresh = after.data.filter((row) => row.id > (newest.data[0]?.id ?? ''));
    expect(fresh.length).toBeGreaterThan(0);
    expect(fresh.every((row) => row.created_at === newestSecond.at)).toBe(true);
    expect(after.data.slice(0, fresh.length)).toEqual(fresh);
  });

  it('liveRate inserts payments on a timer, at no more than the rate, until close', async () => {
    const sandbox = open({ seedCount: 100, liveRate: 200 });
    const started = performance.now();
    await new Promise((resolve) => setTimeout(resolve, 700));
    const added = count(sandbox, 'SELECT count(*) AS n FROM payments') - 100;
    const elapsed = (performance.now() - started) / 1000;
    expect(added).toBeGreaterThan(40);
    expect(added).toBeLessThanOrEqual(Math.ceil(200 * elapsed) + 2);
    sandbox.close();
    // A timer left running would now throw on the closed database and fail the run.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(sandbox.store.db.isOpen).toBe(false);
  });
});
