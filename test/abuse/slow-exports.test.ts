import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BffProcess,
  sessionCookie,
  startBff,
  waitForLog,
  writeManyUsers,
} from './testing/bff-process.ts';
import { type CountingUpstream, startCountingUpstream } from './testing/counting-upstream.ts';
import { describeLatency, outcomes, samplePages, summarize } from './testing/latency.ts';
import { kernelQueuedBytes, type SlowDownload, slowDownload } from './testing/slow-download.ts';

/**
 * Downloads read at 1 KB/s: what the BFF makes for them is counted against what reached the client (read, or in
 * its receive buffer: the client's own), at a proxy in front of the sandbox and in the kernel's tables.
 */
const READ_BYTES_PER_SECOND = 1024;
/** The BFF's export page size (the walk's): one upstream page is one page of CSV rows. */
const ROWS_PER_PAGE = 100;
/** 60,000 rows in one company: a 15 MB file, far more than the kernel buffers of a connection can hold. */
const ROWS = 60_000;
const PASSWORD = 'slow-exports-password-1';
const SLOW_ACCOUNTS = Array.from({ length: 8 }, (_, i) => `slow${i}`);

let upstream: CountingUpstream;
let bff: BffProcess;
let dir: string;
const cookies = new Map<string, string>();
const downloads: SlowDownload[] = [];

beforeAll(async () => {
  upstream = await startCountingUpstream({ seedCount: ROWS, seedWeights: { acme: 1 } });
  dir = await mkdtemp(join(tmpdir(), 'abuse-exports-'));
  await writeFile(join(dir, 'companies.json'), JSON.stringify(upstream.companies));
  const users = ['mallory', 'victim', ...SLOW_ACCOUNTS];
  await writeManyUsers(join(dir, 'users.json'), users, PASSWORD, [], 1 << 12);
  bff = await startBff({
    PAYMENTS_BASE_URL: upstream.baseUrl,
    PAYMENTS_SECRET_ID: upstream.credentials.secretId,
    PAYMENTS_SECRET_PASSWORD: upstream.credentials.secretPassword,
    PAYMENTS_COMPANIES_FILE: join(dir, 'companies.json'),
    AUTH_USERS_FILE: join(dir, 'users.json'),
  });
  for (const name of users) cookies.set(name, await sessionCookie(bff.origin, name, PASSWORD));
}, 60_000);
afterAll(async () => {
  for (const download of downloads) download.close();
  await bff?.stop();
  await upstream?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const startDownload = (user: string) => {
  const download = slowDownload({
    port: bff.port,
    path: '/api/payments/export.csv',
    headers: { cookie: cookies.get(user) ?? '', 'x-csrf': '1' },
    bytesPerSecond: READ_BYTES_PER_SECOND,
  });
  downloads.push(download);
  return download;
};

/** CSV bytes of one upstream page: the first 512 KB of a download read at full speed, per row, times 100. */
async function bytesPerPage(): Promise<number> {
  const browser = new Agent();
  const response = await request(`${bff.origin}/api/payments/export.csv`, {
    headers: { cookie: cookies.get('victim') ?? '', 'x-csrf': '1' },
    dispatcher: browser,
  });
  let text = '';
  for await (const chunk of response.body) {
    text += (chunk as Buffer).toString('utf8');
    if (text.length >= 512 * 1024) break;
  }
  response.body.destroy();
  await browser.destroy();
  const rows = text.split('\r\n').slice(1, -1);
  const bytes = rows.reduce((sum, row) => sum + Buffer.byteLength(row) + 2, 0);
  return (bytes / rows.length) * ROWS_PER_PAGE;
}

describe('slow exports: one user starts 200 downloads and reads each at 1 KB/s', () => {
  let running: SlowDownload[];
  let refused: { status: number; headers: Record<string, string> }[];
  /** Downloads whose connection was reset before an answer came. */
  let resets: string[];
  let pageBytes: number;
  /** Upstream export pages fetched, bytes that reached the clients and the BFF's send queues, every 2 s. */
  let counts: { fetched: number; read: number; received: number; sendQueue: number }[];
  /** The bytes of CSV the running downloads made, by their export_end lines. */
  let producedBytes: number;
  let pages: Awaited<ReturnType<typeof samplePages>['samples']>;

  beforeAll(async () => {
    pageBytes = await bytesPerPage().catch((error: Error) => {
      throw new Error(`measuring a page of CSV: ${error.message}`);
    });
    await waitForLog(bff, (lines) => lines.some((l) => l.msg === 'export_end'), 5_000);
    const victim = samplePages({
      url: `${bff.origin}/api/payments?limit=50`,
      cookie: cookies.get('victim') ?? '',
      warmup: 10,
      count: 100,
      intervalMs: 60,
      timeoutMs: 10_000,
      waitForGo: true,
    });
    await victim.ready;
    const before = upstream.pages(ROWS_PER_PAGE);
    const started = Array.from({ length: 200 }, () => startDownload('mallory'));
    victim.go();
    // On a loaded machine a connection may be reset before its answer: it holds no place either, and is counted.
    const settled = await Promise.allSettled(started.map((d) => d.head));
    const heads = settled.map((h) => (h.status === 'fulfilled' ? h.value : undefined));
    resets = settled.filter((h) => h.status === 'rejected').map((h) => String(h.reason));
    running = started.filter((_, i) => heads[i]?.status === 200);
    refused = heads.filter((h) => h !== undefined && h.status !== 200) as typeof refused;
    const count = () => {
      const kernel = running.map((d) => kernelQueuedBytes(d.localPort(), bff.port));
      return {
        fetched: upstream.pages(ROWS_PER_PAGE) - before,
        read: running.reduce((sum, d) => sum + d.consumed(), 0),
        received: kernel.reduce((sum, k) => sum + k.receiveQueue, 0),
        sendQueue: kernel.reduce((sum, k) => sum + k.sendQueue, 0),
      };
    };
    counts = [];
    for (let i = 0; i < 4; i++) {
      await sleep(2_000);
      counts.push(count());
    }
    pages = await victim.samples;
    counts.push(count());
    for (const download of started) download.close();
    // Closed, each download logs the rows it made into the file: what it produced.
    const mine = (lines: Record<string, unknown>[]) =>
      lines.filter((l) => l.msg === 'export_end' && l.user === 'mallory');
    const ends = mine(await waitForLog(bff, (lines) => mine(lines).length >= running.length, 10_000));
    producedBytes = ends.reduce((sum, l) => sum + (Number(l.rows) / ROWS_PER_PAGE) * pageBytes, 0);
    const last = counts.at(-1);
    console.log(
      [
        `slow exports: 200 started, ${running.length} answered 200, ${refused.length} answered ${[...new Set(refused.map((h) => h.status))].join(', ')}, ${resets.length} reset before an answer ${JSON.stringify([...new Set(resets)])}; a page of CSV is ${(pageBytes / 1024).toFixed(1)} KB`,
        ...counts.map(
          (c, i) =>
            `  count ${i + 1}: upstream pages ${c.fetched}; the clients read ${(c.read / 1024).toFixed(1)} KB and hold ${(c.received / 1024).toFixed(1)} KB unread; BFF send queues ${(c.sendQueue / 1024).toFixed(1)} KB`,
        ),
        `  the downloads made ${(producedBytes / 1024).toFixed(1)} KB of CSV against ${(((last?.read ?? 0) + (last?.received ?? 0)) / 1024).toFixed(1)} KB that reached the clients; export_end ${JSON.stringify(ends.map((l) => `${l.end} after ${l.rows} rows`))}`,
        `  another user's pages: ${JSON.stringify(outcomes(pages))} (${describeLatency(summarize(pages))})`,
      ].join('\n'),
    );
  }, 60_000);

  it('2 downloads run; the other 198 are refused at once with 429 and a Retry-After (or reset, on a loaded machine)', () => {
    expect(running.length).toBeGreaterThanOrEqual(1);
    expect(running.length).toBeLessThanOrEqual(2);
    expect(refused.length + resets.length).toBe(200 - running.length);
    expect(resets.length).toBeLessThan(20);
    for (const head of refused) {
      expect(head.status).toBe(429);
      expect(Number(head.headers['retry-after'])).toBeGreaterThan(0);
    }
  });

  it('makes at most twice what reached the client and a page: the walk waits for the client, not the kernel', () => {
    const last = counts.at(-1);
    if (!last) throw new Error('no counts');
    // What reached the client: read, or arrived and waiting in its receive buffer (its own, as on any network).
    const reached = last.read + last.received;
    expect(producedBytes).toBeGreaterThan(0);
    expect(producedBytes).toBeLessThanOrEqual(2 * reached + running.length * pageBytes);
    // Nothing waits in the BFF's send queues beyond the ahead bound (64 KB) and a page, per download.
    for (const c of counts) expect(c.sendQueue).toBeLessThanOrEqual(running.length * (64 * 1024 + pageBytes));
  });

  it('reads the upstream no further ahead as time goes on: once filled, a page more for each page more the client took', () => {
    // The walk's parts read a few pages ahead each, in memory, once; after that it waits for the reader.
    const [first, last] = [counts[0], counts.at(-1)];
    if (!first || !last) throw new Error('no counts');
    const more = last.read + last.received - (first.read + first.received);
    expect((last.fetched - first.fetched) * pageBytes).toBeLessThanOrEqual(
      2 * more + running.length * pageBytes,
    );
  });

  it('answers every page another user asks meanwhile', () => {
    expect(outcomes(pages)).toEqual({ 200: pages.length });
  });
});

describe('slow exports: 8 accounts hold every download place, reading at 1 KB/s', () => {
  it("another user's download starts within 30 s: the slow readers are ended for their pace and give their places back", async () => {
    const started = performance.now();
    const slow = SLOW_ACCOUNTS.flatMap((name) => [startDownload(name), startDownload(name)]);
    const heads = await Promise.all(slow.map((d) => d.head));
    const tries: string[] = [];
    let admittedAfterMs = Number.POSITIVE_INFINITY;
    while (performance.now() - started < 60_000) {
      const response = await request(`${bff.origin}/api/payments/export.csv?status=FAILED`, {
        headers: { cookie: cookies.get('victim') ?? '', 'x-csrf': '1' },
      });
      const answeredAfterMs = performance.now() - started;
      await response.body.dump();
      tries.push(`${response.statusCode}`);
      if (response.statusCode === 200) {
        admittedAfterMs = answeredAfterMs;
        break;
      }
      await sleep(Number(response.headers['retry-after'] ?? 1) * 1000);
    }
    const ends = bff
      .logLines()
      .filter((l) => l.msg === 'export_end' && SLOW_ACCOUNTS.includes(String(l.user)));
    console.log(
      `8 slow accounts: ${heads.filter((h) => h.status === 200).length} of 16 downloads running; another user's tries ${tries.join(', ')}, admitted after ${(admittedAfterMs / 1000).toFixed(1)} s; the slow ones ended ${JSON.stringify(ends.map((l) => `${l.end} after ${l.rows} rows`))}`,
    );
    expect(heads.map((h) => h.status)).toEqual(slow.map(() => 200));
    // Every place had been taken: the first try was refused.
    expect(tries[0]).toBe('429');
    expect(tries.at(-1)).toBe('200');
    expect(ends.filter((l) => l.end === 'too_slow').length).toBeGreaterThan(0);
    expect(admittedAfterMs).toBeLessThanOrEqual(30_000);
  }, 90_000);
});
