/**
 * The finance features of the list, against one BFF process started as `pnpm start` starts it in sandbox mode
 * (`server/src/main.ts` with its embedded sandbox, SANDBOX_SEED_COUNT rows), over loopback:
 * - The summary (`GET /api/payments/summary`) of one company holding at least 100,000 rows: at least 30,000
 *   rows/s, its first call (later ones are served from a 60 s cache), with the BFF's RSS growth at most 50 MB.
 *   Beside it: the same summary streamed as events, the same list walked straight at the sandbox (the upstream's
 *   share), and a group's summary over a few thousand rows (a group walks its companies' pages again and again,
 *   so a whole group of 100,000 rows takes minutes: it is bounded by date_from here).
 * - A group's first page (the root and its 7 descendants, 8 companies merged): p50 at most 3× one company's first
 *   page, the two sent in alternation.
 * - A first page whose date_to lies ~10,000 rows down the company's list: the BFF follows the upstream's cursor
 *   past whole pages of newer rows; its p50 beside the same pages walked straight at the sandbox.
 *
 * The embedded sandbox runs on the BFF's thread, so every BFF figure also pays for the upstream's work; the direct
 * walks say how much that is. Upstream requests per BFF request are read from the BFF's own request log.
 */

import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { COMPANY_HEADER, type Summary } from '@payments/shared';
import { portsFrom, rssOf, signInHeaders, spawnBff } from './bench-process.ts';
import { atLeast, atMost, type BenchFigure, type BenchSuite, median } from './report.ts';

/** The root `acme` gets 22 % of the seeded rows by default: 480,000 gives it about 105,000. */
const SEED_COUNT = 480_000;
const SUMMARY_ROWS = 100_000;
const ROOT = 'acme';
/** Before every seeded row (they lie in the two years before 2026-06-01): the whole list, a key of its own. */
const WHOLE_LIST_FROM = '2024-01-01T00:00:00';
/** The group's summary over its last ~12 days of payments: a few thousand rows. */
const GROUP_SUMMARY_FROM = '2026-05-20T00:00:00';
/** The dashboard's default page size. */
const PAGE = 50;
const FIRST_PAGE_RUNS = 40;
const DATE_TO_SKIPPED = 10_000;
const DATE_TO_RUNS = 7;
const DIRECT_RUNS = 3;
/** Where the BFF and its sandbox listen (PORT must be a number): a range the project's other servers leave alone. */
const PORTS = { from: 3400, to: 3499 };
const DEMO_PASSWORD = 'bench-password-1234';
const SANDBOX_AUTH = `Basic ${Buffer.from('sandbox_id:sandbox_secret').toString('base64')}`;

const freePort = portsFrom(PORTS);

interface Bff {
  process: ChildProcess;
  pid: number;
  origin: string;
  sandbox: string;
  logFile: string;
}

/** The BFF in sandbox mode, its JSON request log written to a file (a pipe would wake this process per line). */
async function startBff(logFile: string): Promise<Bff> {
  const [port, sandboxPort] = [await freePort(), await freePort()];
  const bff = await spawnBff(
    {
      PORT: String(port),
      SANDBOX_PORT: String(sandboxPort),
      SANDBOX_SEED_COUNT: String(SEED_COUNT),
      // Fixed data: the two years before 1 June 2026, whatever the day the run is.
      SANDBOX_SEED_END: '2026-06-01T00:00:00Z',
      APP_SECRET: randomBytes(32).toString('base64url'),
      DEMO_PASSWORD,
      LOG_FORMAT: 'json',
      WEB_DIST_DIR: join(tmpdir(), 'finance-bench-no-spa'),
    },
    logFile,
  );
  return { ...bff, sandbox: `http://127.0.0.1:${sandboxPort}`, logFile };
}

/** Samples the process's RSS every 20 ms until `stop`: the peak and last growth over the RSS at the start (MB). */
function rssWatch(pid: number) {
  const before = rssOf(pid);
  let peak = before;
  const timer = setInterval(() => {
    peak = Math.max(peak, rssOf(pid));
  }, 20);
  return {
    before,
    stop() {
      clearInterval(timer);
      const end = rssOf(pid);
      return { peakGrowth: Math.max(peak, end) - before, endGrowth: end - before };
    },
  };
}

/** The upstream requests the BFF made for one of its requests, from its request log. */
function upstreamAttempts(bff: Bff, requestId: string | null): number {
  for (const line of readFileSync(bff.logFile, 'utf8').split('\n')) {
    if (requestId === null || !line.includes(requestId)) continue;
    const entry = JSON.parse(line) as { msg?: string; upstream_attempts?: number };
    if (entry.msg === 'request') return entry.upstream_attempts ?? Number.NaN;
  }
  return Number.NaN;
}

interface Row {
  id: string;
  created_at: string;
}

/** GET through the BFF: the parsed answer, the wall time to its last byte, and the request id. */
async function bffGet<T>(bff: Bff, session: Record<string, string>, path: string, group = false) {
  const started = performance.now();
  const response = await fetch(`${bff.origin}${path}`, {
    headers: { ...session, [COMPANY_HEADER]: ROOT, accept: 'application/json' },
  });
  const text = await response.text();
  const ms = performance.now() - started;
  if (response.status !== 200)
    throw new Error(`${path}${group ? ' (group)' : ''}: ${response.status} ${text}`);
  return { body: JSON.parse(text) as T, ms, requestId: response.headers.get('x-request-id') };
}

/** The root's list walked straight at the sandbox, `pages` pages of `limit` (all when Infinity). */
async function directWalk(bff: Bff, query: string, limit: number, pages: number) {
  const rows: Row[] = [];
  let cursor: string | null = null;
  let walked = 0;
  const started = performance.now();
  do {
    const after = cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`;
    const response = await fetch(`${bff.sandbox}/v1/payments/?limit=${limit}${query}${after}`, {
      headers: { authorization: SANDBOX_AUTH },
    });
    if (response.status !== 200) throw new Error(`sandbox: ${response.status} ${await response.text()}`);
    const page = (await response.json()) as { data: Row[]; next_cursor: string | null };
    for (const row of page.data) rows.push({ id: row.id, created_at: row.created_at });
    cursor = page.next_cursor;
    walked += 1;
  } while (cursor !== null && walked < pages);
  return { rows, pages: walked, ms: performance.now() - started };
}

/** The summary as events: the time to the first progress event, the events, the summary and the total time. */
async function streamedSummary(bff: Bff, session: Record<string, string>, query: string) {
  const started = performance.now();
  const response = await fetch(`${bff.origin}/api/payments/summary?${query}`, {
    headers: { ...session, [COMPANY_HEADER]: ROOT, accept: 'text/event-stream' },
  });
  if (response.status !== 200 || response.body === null)
    throw new Error(`summary (events): ${response.status} ${await response.text()}`);
  let firstProgressMs = Number.NaN;
  let progress = 0;
  let summary: Summary | undefined;
  let buffered = '';
  for await (const chunk of response.body.pipeThrough(new TextDecoderStream())) {
    buffered += chunk;
    let end = buffered.indexOf('\n\n');
    while (end >= 0) {
      const event = buffered.slice(0, end);
      buffered = buffered.slice(end + 2);
      if (/^event: progress$/m.test(event)) {
        progress += 1;
        if (progress === 1) firstProgressMs = performance.now() - started;
      } else if (/^event: summary$/m.test(event)) {
        summary = JSON.parse(/^data: (.*)$/m.exec(event)?.[1] ?? 'null') as Summary;
      } else if (/^event: error$/m.test(event)) throw new Error(`summary (events): ${event}`);
      end = buffered.indexOf('\n\n');
    }
  }
  if (summary === undefined) throw new Error('summary (events): the stream ended without a summary');
  return { summary, progress, firstProgressMs, ms: performance.now() - started };
}

async function summaryFigures(bff: Bff, session: Record<string, string>): Promise<BenchFigure[]> {
  // Warm the code paths on a small summary of another key, as a server that has been up a while has them warm.
  await bffGet<Summary>(bff, session, `/api/payments/summary?date_from=${GROUP_SUMMARY_FROM}`);

  const direct = await directWalk(bff, `&date_from=${WHOLE_LIST_FROM}`, 100, Number.POSITIVE_INFINITY);
  const directRate = direct.rows.length / (direct.ms / 1000);

  const rss = rssWatch(bff.pid);
  const json = await bffGet<Summary>(bff, session, `/api/payments/summary?date_from=${WHOLE_LIST_FROM}`);
  const memory = rss.stop();
  const rows = json.body.count;
  const rate = rows / (json.ms / 1000);
  const attempts = upstreamAttempts(bff, json.requestId);
  const cached = await bffGet<Summary>(bff, session, `/api/payments/summary?date_from=${WHOLE_LIST_FROM}`);

  // Another key (one second later, the same rows), so that the stream walks the upstream again.
  const streamRss = rssWatch(bff.pid);
  const streamed = await streamedSummary(bff, session, 'date_from=2024-01-01T00:00:01');
  const streamMemory = streamRss.stop();
  if (streamed.summary.count !== rows)
    throw new Error(`the streamed summary counted ${streamed.summary.count} rows, the JSON one ${rows}`);

  const group = await bffGet<Summary>(
    bff,
    session,
    `/api/payments/summary?group=true&date_from=${GROUP_SUMMARY_FROM}`,
    true,
  );
  const groupAttempts = upstreamAttempts(bff, group.requestId);
  const groupRate = group.body.count / (group.ms / 1000);

  console.log(
    `  summary of ${ROOT}: ${rows.toLocaleString('en')} rows in ${(json.ms / 1000).toFixed(2)} s, ${attempts} upstream requests; RSS ${rss.before.toFixed(0)} MB before`,
  );
  console.log(
    `  group summary from ${GROUP_SUMMARY_FROM}: ${group.body.count.toLocaleString('en')} rows in ${(group.ms / 1000).toFixed(2)} s, ${groupAttempts} upstream requests`,
  );
  return [
    {
      name: 'summary: rows counted (one company)',
      value: rows,
      unit: 'rows',
      ...atLeast(rows, SUMMARY_ROWS),
    },
    {
      name: 'summary JSON, first call: rows per second',
      value: rate,
      unit: 'rows/s',
      ...atLeast(rate, 30_000),
    },
    { name: 'summary JSON, first call: time', value: json.ms / 1000, unit: 's' },
    {
      name: 'summary JSON, first call: BFF RSS growth (peak - before)',
      value: memory.peakGrowth,
      unit: 'MB',
      ...atMost(memory.peakGrowth, 50),
    },
    { name: 'summary JSON, first call: BFF RSS growth at the end', value: memory.endGrowth, unit: 'MB' },
    { name: 'summary JSON, first call: upstream requests', value: attempts, unit: 'req' },
    { name: 'summary JSON, cached second call: time', value: cached.ms, unit: 'ms' },
    {
      name: 'same list walked straight at the sandbox (limit=100): rows per second',
      value: directRate,
      unit: 'rows/s',
    },
    {
      name: 'summary as events: rows per second',
      value: streamed.summary.count / (streamed.ms / 1000),
      unit: 'rows/s',
    },
    { name: 'summary as events: first progress event', value: streamed.firstProgressMs, unit: 'ms' },
    { name: 'summary as events: progress events', value: streamed.progress, unit: 'events' },
    { name: 'summary as events: BFF RSS growth (peak - before)', value: streamMemory.peakGrowth, unit: 'MB' },
    {
      name: `group summary (8 companies, from ${GROUP_SUMMARY_FROM}): rows`,
      value: group.body.count,
      unit: 'rows',
    },
    { name: 'group summary: rows per second', value: groupRate, unit: 'rows/s' },
    {
      name: 'group summary: upstream requests per 100 rows counted',
      value: (groupAttempts / group.body.count) * 100,
      unit: 'req',
    },
    {
      name: 'one company summary: upstream requests per 100 rows counted',
      value: (attempts / rows) * 100,
      unit: 'req',
    },
  ];
}

/** One company's first page straight at the sandbox (the root's own list without X-Company-Id, as the BFF asks). */
async function directFirstPage(bff: Bff, company: string): Promise<void> {
  const response = await fetch(`${bff.sandbox}/v1/payments/?limit=${PAGE}`, {
    headers: { authorization: SANDBOX_AUTH, ...(company === ROOT ? {} : { [COMPANY_HEADER]: company }) },
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`sandbox ${company}: ${response.status} ${text}`);
}

async function groupFigures(bff: Bff, session: Record<string, string>): Promise<BenchFigure[]> {
  const single = `/api/payments?limit=${PAGE}`;
  const group = `/api/payments?limit=${PAGE}&group=true`;
  const listed = await fetch(`${bff.sandbox}/_sandbox/companies`, {
    headers: { authorization: SANDBOX_AUTH },
  });
  const companies = ((await listed.json()) as { id: string }[]).map((c) => c.id);
  const timed = async (work: () => Promise<unknown>) => {
    const started = performance.now();
    await work();
    return performance.now() - started;
  };
  // The upstream's share, read beside the BFF's: the root's first page, and all companies' first pages asked
  // as the BFF asks them for a group (list-source.ts: at most 4 at once).
  const directSingle = () => directFirstPage(bff, ROOT);
  const directGroup = async () => {
    for (let i = 0; i < companies.length; i += 4)
      await Promise.all(companies.slice(i, i + 4).map((company) => directFirstPage(bff, company)));
  };
  for (let i = 0; i < 5; i++) {
    await bffGet(bff, session, single);
    await bffGet(bff, session, group, true);
    await directSingle();
    await directGroup();
  }
  const singleMs: number[] = [];
  const groupMs: number[] = [];
  const directSingleMs: number[] = [];
  const directGroupMs: number[] = [];
  let groupAttempts = Number.NaN;
  let groupRows = 0;
  const sendGroup = async () => {
    const answer = await bffGet<{ data: unknown[] }>(bff, session, group, true);
    groupMs.push(answer.ms);
    groupRows = answer.body.data.length;
    groupAttempts = upstreamAttempts(bff, answer.requestId);
  };
  const sendSingle = async () => {
    singleMs.push((await bffGet(bff, session, single)).ms);
  };
  // Alternating which goes first, so that neither always follows the other.
  for (let i = 0; i < FIRST_PAGE_RUNS; i++) {
    for (const send of i % 2 === 0 ? [sendSingle, sendGroup] : [sendGroup, sendSingle]) await send();
    directSingleMs.push(await timed(directSingle));
    directGroupMs.push(await timed(directGroup));
  }
  const ratio = median(groupMs) / median(singleMs);
  return [
    { name: `first page limit=${PAGE}, one company: p50`, value: median(singleMs), unit: 'ms' },
    {
      name: `first page limit=${PAGE}, group of ${companies.length} companies: p50`,
      value: median(groupMs),
      unit: 'ms',
    },
    { name: 'first page: group p50 / one company p50', value: ratio, unit: '×', ...atMost(ratio, 3) },
    { name: 'group first page: rows', value: groupRows, unit: 'rows' },
    { name: 'group first page: upstream requests', value: groupAttempts, unit: 'req' },
    {
      name: "straight at the sandbox: one company's first page p50",
      value: median(directSingleMs),
      unit: 'ms',
    },
    {
      name: `straight at the sandbox: ${companies.length} companies' first pages, 4 at once, p50`,
      value: median(directGroupMs),
      unit: 'ms',
    },
  ];
}

async function dateToFigures(bff: Bff, session: Record<string, string>): Promise<BenchFigure[]> {
  // The created_at of the root's row 10,001 (newest first) as date_to: the rows before it that are newer are skipped.
  const walked = await directWalk(bff, '', 100, DATE_TO_SKIPPED / 100 + 1);
  const boundary = walked.rows[DATE_TO_SKIPPED];
  if (boundary === undefined) throw new Error(`${ROOT} holds fewer than ${DATE_TO_SKIPPED + 1} rows`);
  const dateTo = boundary.created_at.slice(0, 19);
  const newer = walked.rows.filter((row) => row.created_at.slice(0, 19) > dateTo).length;
  const expected = walked.rows[newer];
  const path = `/api/payments?limit=${PAGE}&date_to=${dateTo}`;

  const samples: number[] = [];
  let attempts = Number.NaN;
  for (let i = 0; i < DATE_TO_RUNS + 1; i++) {
    const answer = await bffGet<{ data: Row[] }>(bff, session, path);
    if (answer.body.data[0]?.id !== expected?.id)
      throw new Error(`date_to=${dateTo}: first row ${answer.body.data[0]?.id}, expected ${expected?.id}`);
    if (i > 0) samples.push(answer.ms); // the first one warms up
    attempts = upstreamAttempts(bff, answer.requestId);
  }
  // The same pages straight at the sandbox: the upstream's share of the wait.
  const direct: number[] = [];
  for (let i = 0; i < DIRECT_RUNS; i++) direct.push((await directWalk(bff, '', PAGE, attempts)).ms);

  console.log(`  date_to=${dateTo}: ${newer.toLocaleString('en')} newer rows of ${ROOT} skipped`);
  return [
    { name: 'date_to first page: newer rows skipped', value: newer, unit: 'rows' },
    { name: `date_to first page limit=${PAGE}: upstream pages followed`, value: attempts, unit: 'pages' },
    {
      name: `date_to first page limit=${PAGE}: p50 (${DATE_TO_RUNS} runs)`,
      value: median(samples),
      unit: 'ms',
    },
    { name: 'date_to first page: slowest run', value: Math.max(...samples), unit: 'ms' },
    {
      name: 'the same upstream pages walked straight at the sandbox: p50',
      value: median(direct),
      unit: 'ms',
    },
  ];
}

async function run(): Promise<BenchFigure[]> {
  const dir = await mkdtemp(join(tmpdir(), 'finance-bench-'));
  let bff: Bff | undefined;
  const kill = () => bff?.process.kill();
  process.once('exit', kill);
  try {
    const started = performance.now();
    bff = await startBff(join(dir, 'bff.log'));
    const startSeconds = (performance.now() - started) / 1000;
    const session = await signInHeaders(bff.origin, DEMO_PASSWORD);
    return [
      {
        name: `BFF start with ${SEED_COUNT.toLocaleString('en')} sandbox rows`,
        value: startSeconds,
        unit: 's',
      },
      ...(await summaryFigures(bff, session)),
      ...(await groupFigures(bff, session)),
      ...(await dateToFigures(bff, session)),
    ];
  } finally {
    kill();
    process.off('exit', kill);
    await rm(dir, { recursive: true, force: true });
  }
}

export const suite: BenchSuite = {
  name: 'finance: summary of 100k rows, a group of 8 companies’ first page, a first page past 10k rows newer than date_to',
  run,
};
