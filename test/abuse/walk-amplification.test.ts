import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BffProcess, sessionCookie, startBff, writeManyUsers } from './testing/bff-process.ts';
import { type CountingUpstream, startCountingUpstream } from './testing/counting-upstream.ts';
import { describeLatency, outcomes, samplePages, summarize } from './testing/latency.ts';

/**
 * Walks cost what they return: what one browser request may make the BFF ask of the upstream, counted at the
 * upstream (a proxy in front of the sandbox), never taken from the BFF's word.
 */
const PASSWORD = 'amplification-password-1';
const USERS = ['mallory', 'victim', ...Array.from({ length: 20 }, (_, i) => `colleague${i}`)];
/** Few enough places that one user's share of them is a bound her walks meet. */
const UPSTREAM_MAX_CONCURRENCY = 8;

let upstream: CountingUpstream;
let bff: BffProcess;
let dir: string;
const cookies = new Map<string, string>();
const browser = new Agent({ connections: 64, keepAliveTimeout: 60_000 });

beforeAll(async () => {
  upstream = await startCountingUpstream({ seedCount: 20_000 });
  dir = await mkdtemp(join(tmpdir(), 'abuse-walks-'));
  await writeFile(join(dir, 'companies.json'), JSON.stringify(upstream.companies));
  await writeManyUsers(join(dir, 'users.json'), USERS, PASSWORD, [], 1 << 12);
  bff = await startBff({
    PAYMENTS_BASE_URL: upstream.baseUrl,
    PAYMENTS_SECRET_ID: upstream.credentials.secretId,
    PAYMENTS_SECRET_PASSWORD: upstream.credentials.secretPassword,
    PAYMENTS_COMPANIES_FILE: join(dir, 'companies.json'),
    AUTH_USERS_FILE: join(dir, 'users.json'),
    // No page answered again from memory: every request the test makes is counted as the upstream sees it.
    UPSTREAM_PAGE_REUSE_MS: '0',
    UPSTREAM_MAX_CONCURRENCY: String(UPSTREAM_MAX_CONCURRENCY),
  });
  for (const name of USERS) cookies.set(name, await sessionCookie(bff.origin, name, PASSWORD));
}, 60_000);
afterAll(async () => {
  await bff?.stop();
  await upstream?.close();
  await browser.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function get(path: string, user: string, headers: Record<string, string> = {}) {
  const response = await request(`${bff.origin}${path}`, {
    headers: { cookie: cookies.get(user) ?? '', 'x-csrf': '1', ...headers },
    dispatcher: browser,
  });
  const text = await response.body.text();
  return { status: response.statusCode, text, headers: response.headers };
}

/** Upstream requests a call caused. */
async function costOf(call: () => Promise<unknown>): Promise<number> {
  const before = upstream.requests();
  await call();
  return upstream.requests() - before;
}

describe('walks cost what they return', () => {
  it('a date_to past every payment reads pages of 100, once; asked again, it starts at the position remembered', async () => {
    const rows = 20_000 * 0.22;
    const first = await costOf(() => get('/api/payments?limit=1&date_to=2000-01-01T00:00:00', 'mallory'));
    // The root company's ~4,400 rows at 100 a page, not 1 a page: about 45 requests, never 4,400.
    expect(first).toBeLessThanOrEqual(Math.ceil(rows / 100) + 5);
    const again = await costOf(() => get('/api/payments?limit=1&date_to=2000-01-01T00:00:00', 'mallory'));
    expect(again).toBeLessThanOrEqual(2);
  });

  it('50 such lists at once from one session cost a few requests each, never a walk of 2,000 pages', async () => {
    let answers: { status: number; headers: Record<string, unknown> }[] = [];
    const cost = await costOf(async () => {
      answers = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          get(`/api/payments?limit=1&date_to=2001-0${1 + (i % 9)}-01T00:00:00`, 'mallory'),
        ),
      );
    });
    // Each starts at the remembered position nearest above its date_to; more than WALKS_PER_USER at once wait
    // for none: they are refused with Retry-After.
    expect(cost).toBeLessThanOrEqual(50 * 2);
    for (const answer of answers) {
      expect([200, 429]).toContain(answer.status);
      if (answer.status === 429) expect(answer.headers['retry-after']).toBe('5');
    }
  });

  it("a group's next page reads only the companies whose next rows it shows, not every company again", async () => {
    const headers = { 'x-company-id': 'acme' };
    let cursor = '';
    const costs: number[] = [];
    for (let page = 0; page < 6; page++) {
      let next = '';
      costs.push(
        await costOf(async () => {
          const answer = await get(`/api/payments?limit=1&group=true${cursor}`, 'victim', headers);
          next = (JSON.parse(answer.text) as { next_cursor: string }).next_cursor;
        }),
      );
      cursor = `&cursor=${encodeURIComponent(next)}`;
    }
    const companies = upstream.companies.filter((c) => c.id.startsWith('acme')).length;
    // The first page reads every company once; every later one a company or two, not all eight.
    expect(costs[0]).toBe(companies);
    for (const cost of costs.slice(1)) expect(cost).toBeLessThanOrEqual(2);
  });

  it('twenty people asking the same summary at once share one walk', async () => {
    const pages = Math.ceil((20_000 * 0.22) / 100);
    const cost = await costOf(() =>
      Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          get('/api/payments/summary?status=AWAITING&date_from=2025-01-01T00:00:00', `colleague${i}`),
        ),
      ),
    );
    expect(cost).toBeLessThanOrEqual(pages);
  });

  it("one user's 32 walks hold at most her share of the upstream's places (8 over her and one more: 4), and every page another user asks meanwhile answers", async () => {
    const victim = samplePages({
      url: `${bff.origin}/api/payments?limit=50&status=COMPLETED`,
      cookie: cookies.get('victim') ?? '',
      warmup: 20,
      count: 100,
      intervalMs: 20,
      timeoutMs: 10_000,
      waitForGo: true,
    });
    await victim.ready;
    upstream.resetPeaks();
    const walks = Array.from({ length: 32 }, (_, i) =>
      get(
        i % 2
          ? `/api/payments/export.csv?status=FAILED`
          : `/api/payments/summary?date_to=2026-0${1 + (i % 5)}-01T00:00:00`,
        'mallory',
      ),
    );
    victim.go();
    const pages = await victim.samples;
    const answers = await Promise.all(walks);
    console.log(
      `32 walks: answers ${JSON.stringify(answers.map((a) => a.status))}; walk pages in flight at most ${upstream.peakInFlight(100)}; the other user's pages ${JSON.stringify(outcomes(pages))} (${describeLatency(summarize(pages))})`,
    );
    // WALKS_PER_USER of them walk at a time; the others are refused at once, or walk once places free; each of
    // the user's summaries replaces the one before (409).
    for (const answer of answers) expect([200, 409, 429]).toContain(answer.status);
    expect(answers.filter((a) => a.status === 200).length).toBeGreaterThan(0);
    // Without UPSTREAM_MAX_RPS a user's share is the places split between the users walking and one more.
    expect(upstream.peakInFlight(100)).toBeGreaterThanOrEqual(2);
    expect(upstream.peakInFlight(100)).toBeLessThanOrEqual(UPSTREAM_MAX_CONCURRENCY / 2);
    expect(outcomes(pages)).toEqual({ 200: pages.length });
  }, 60_000);

  it('hostile column names answer 200 or 400 and never keep a place: every other user still exports after 100', async () => {
    const hostile = [
      '__proto__',
      'constructor,toString',
      'hasOwnProperty',
      '__proto__,__defineGetter__',
      'valueOf',
    ];
    const statuses = new Set<number>();
    for (let i = 0; i < 100; i++) {
      const answer = await get(
        `/api/payments/export.csv?columns=${encodeURIComponent(hostile[i % hostile.length] as string)}&status=CANCELLED&date_from=2026-05-01T00:00:00`,
        USERS[2 + (i % 8)] as string,
      );
      statuses.add(answer.status);
    }
    expect([...statuses].filter((status) => status !== 200 && status !== 400)).toEqual([]);
    const others = await Promise.all(
      USERS.slice(10, 22).map((user) =>
        get('/api/payments/export.csv?status=CANCELLED&date_from=2026-05-20T00:00:00', user),
      ),
    );
    expect(others.map((a) => a.status)).toEqual(others.map(() => 200));
  }, 60_000);
});
