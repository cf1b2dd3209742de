/**
 * The BFF against an upstream as operators have one: remote, rate-limited and shared. The sandbox runs as a process
 * of its own with `SANDBOX_FAULTS=latency_ms=100,rate_limit_rps=40` (every page 100 ms away, 40 requests a second
 * for everyone), about 40,000 rows in the main tenant's group; the BFF as a process of its own in front of it,
 * configured as in production (PAYMENTS_BASE_URL, credentials, companies file, a users file, UPSTREAM_MAX_RPS=40).
 * Upstream traffic is read from the sandbox's own count (`/_sandbox/stats`), rows from an oracle: the same seed
 * built in this process (`createSandbox`) and walked without a network. Figures, each with its target:
 * 1. 24 signed-in browsers open the same view at once: upstream requests it caused (≤ 3).
 * 2. A month a year back, first page, for a company of ≥ 6k rows after it was walked once (≤ 1 s); and cold.
 * 3. A half-year summary of that company: time (≤ 1.5 × its pages at limit 100 ÷ 40 rps + 0.5 s), and exact.
 * 4. A group summary: time ÷ the same pages one after another at the measured page latency (≤ 0.5).
 * 5. A light user's first pages of varied views every ~300 ms, idle then while two users each run two CSV exports
 *    and a group summary: p95 under load ≤ 3 × idle p50, no failures.
 * 6. Upstream requests refused with 429 during 5, as a share of all upstream requests then (≤ 2 %).
 * 7. A cold export (fresh BFF): time ÷ (its pages × the measured page latency) (≤ 1.1).
 * 8. Figure 3's half-year searched for an amount range (every row read, matches exact): time ÷ figure 3's (≤ 1.5).
 * 9. The group's last full month sorted by amount, the group walked before (figure 4): first sorted rows ≤ 1.2 ×
 *    the reachable floor (the month's pages ÷ the rate, or its largest company's pages × the page latency,
 *    whichever is larger) + 0.5 s, rows exact; scrolling it to its end: upstream requests (0).
 * 10. That month's group figures with their per-company breakdown (a Refresh), breakdown exact: its time and
 *    upstream requests ÷ those of one walk of the month (figure 9's) (one walk, not two: ≤ 1.1).
 * Every step has a timeout: a step that runs out is reported as not met, and the suite ends in bounded time.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { createSandbox } from '@payments/server/sandbox';
import { COMPANY_HEADER, currencyExponent, type Summary } from '@payments/shared';
import { parse as parseCsv } from 'csv-parse/sync';
import { cpuMsOf, portsFrom, searchStream, signInHeaders, spawnBff, spawnSandbox } from './bench-process.ts';
import { atLeast, atMost, type BenchFigure, type BenchSuite, median, percentile } from './report.ts';

/** The default weights give the `acme` group 75.2 of 100.2 shares: 53,300 rows seed about 40,000 there. */
const SEED_COUNT = 53_300;
const FAULTS = 'latency_ms=100,rate_limit_rps=40';
const UPSTREAM_RPS = 40;
const ROOT = 'acme';
/** About 8,500 rows: the company of figures 2 and 3 (≥ 6k rows). */
const COMPANY = 'acme-eu-de';
/** The cold export's company, one figure 2's cold page does not touch (about 6,900 rows). */
const EXPORT_COMPANY = 'acme-us-ny';
/** The view of figure 1: asked by nobody before it. */
const SHARED_VIEW = { company: 'acme-us', query: 'limit=50&status=COMPLETED' };
const BROWSERS = 24;
/**
 * Where the children listen: a range the project's other servers and benchmarks leave alone, or
 * `BENCH_PORTS=<from>-<to>` when several run on one machine.
 */
const PORTS = (() => {
  const [from, to] = (process.env.BENCH_PORTS ?? '3600-3699').split('-').map(Number);
  return { from: from ?? 3600, to: to ?? 3699 };
})();
const STEP_TIMEOUT_MS = 120_000;
const PAGE_LATENCY_SAMPLES = 20;
const LIGHT_INTERVAL_MS = 300;
const LIGHT_TIMEOUT_MS = 30_000;
const IDLE_SAMPLES = 20;
/** How long figure 5's heavy users run before the light user starts measuring, and how long it measures. */
const LOAD_RAMP_MS = 1_000;
const LOAD_WINDOW_MS = 30_000;
const PASSWORD = 'remote-bench-password';
const USERS = ['demo', 'ana', 'bob', 'light'] as const;
const SANDBOX_AUTH = `Basic ${Buffer.from('sandbox_id:sandbox_secret').toString('base64')}`;
const USER_ADD = fileURLToPath(new URL('../../server/src/cli/user-add.ts', import.meta.url));

const freePort = portsFrom(PORTS);
type Session = Record<string, string>;

interface Row {
  id: string;
  created_at: string;
  status: string;
  amount: number;
  currency: string;
}

/** Every row of every company of the main tenant, newest first, from the same seed in this process (no network). */
async function oracleRows(seedCount = SEED_COUNT): Promise<Map<string, Row[]>> {
  const sandbox = createSandbox({ seedCount });
  try {
    const tenant = sandbox.tenants[0];
    if (!tenant) throw new Error('the sandbox has no tenant');
    const rows = new Map<string, Row[]>();
    for (const { id: company } of tenant.companies) {
      const list: Row[] = [];
      let cursor: string | null = null;
      do {
        const query = cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`;
        const response = await sandbox.app.request(`/v1/payments/?limit=100${query}`, {
          headers: { authorization: SANDBOX_AUTH, [COMPANY_HEADER]: company },
        });
        const page = (await response.json()) as { data: Row[]; next_cursor: string | null };
        for (const r of page.data)
          list.push({
            id: r.id,
            created_at: r.created_at,
            status: r.status,
            amount: r.amount,
            currency: r.currency,
          });
        cursor = page.next_cursor;
      } while (cursor !== null);
      rows.set(company, list);
    }
    return rows;
  } finally {
    sandbox.close();
  }
}

const pagesOf = (rows: number) => Math.max(1, Math.ceil(rows / 100));
const inRange = (rows: readonly Row[], from: string, to: string) =>
  rows.filter((r) => r.created_at >= from && r.created_at <= to);

/** A calendar month twelve months before `newest`, and the last calendar half-year that ended before its month. */
function ranges(newest: string) {
  const year = Number(newest.slice(0, 4));
  const month = Number(newest.slice(5, 7));
  const pad = (n: number) => String(n).padStart(2, '0');
  const lastDay = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate();
  const monthRange = {
    from: `${year - 1}-${pad(month)}-01T00:00:00`,
    to: `${year - 1}-${pad(month)}-${pad(lastDay(year - 1, month))}T23:59:59`,
  };
  const half =
    month > 6
      ? { from: `${year}-01-01T00:00:00`, to: `${year}-06-30T23:59:59` }
      : { from: `${year - 1}-07-01T00:00:00`, to: `${year - 1}-12-31T23:59:59` };
  return { month: monthRange, half };
}

/** A decimal string in major units as an integer of minor units, or undefined when it does not fit the currency. */
function minorUnits(total: string, currency: string): bigint | undefined {
  const exponent = currencyExponent(currency);
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(total);
  if (exponent === null || !match) return undefined;
  const fraction = (match[3] ?? '').replace(/0+$/, '');
  if (fraction.length > exponent) return undefined;
  const value = BigInt(`${match[2]}${fraction.padEnd(exponent, '0')}`);
  return match[1] === '-' ? -value : value;
}

/** Whether a summary holds exactly the oracle's count, counts per status and totals per currency; why not if not. */
function differences(summary: Summary, rows: readonly Row[]): string[] {
  const problems: string[] = [];
  if (summary.count !== rows.length) problems.push(`count ${summary.count}, expected ${rows.length}`);
  if (!summary.complete) problems.push('complete: false');
  const statuses = new Map<string, number>();
  const totals = new Map<string, { count: number; minor: bigint }>();
  for (const row of rows) {
    statuses.set(row.status, (statuses.get(row.status) ?? 0) + 1);
    const entry = totals.get(row.currency) ?? { count: 0, minor: 0n };
    entry.count += 1;
    entry.minor += BigInt(row.amount);
    totals.set(row.currency, entry);
  }
  const gotStatuses = new Map(summary.by_status.map((s) => [String(s.status), s.count]));
  for (const [status, count] of statuses)
    if (gotStatuses.get(status) !== count)
      problems.push(`${status}: ${gotStatuses.get(status)}, expected ${count}`);
  if (gotStatuses.size !== statuses.size)
    problems.push(`${gotStatuses.size} statuses, expected ${statuses.size}`);
  for (const [currency, expected] of totals) {
    const got = summary.totals.find((t) => t.currency === currency);
    if (
      got === undefined ||
      got.count !== expected.count ||
      minorUnits(got.total, currency) !== expected.minor
    )
      problems.push(
        `${currency}: ${JSON.stringify(got)}, expected ${expected.count} rows, ${expected.minor} minor`,
      );
  }
  if (summary.totals.length !== totals.size)
    problems.push(`${summary.totals.length} currencies, expected ${totals.size}`);
  return problems;
}

/** `pnpm user:add` as an operator runs it, one user of every company, the password from the environment. */
async function addUser(file: string, username: string): Promise<void> {
  const child = spawn(process.execPath, [USER_ADD, '--file', file, '--username', username, '--all'], {
    env: { PATH: process.env.PATH ?? '', USER_ADD_PASSWORD: PASSWORD },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const [code] = await once(child, 'exit');
  if (code !== 0) throw new Error(`user:add ${username} exited with ${code}`);
}

interface UpstreamStats {
  requests: number;
  by_status: Record<string, number>;
}

/** The sandbox's count of what `/v1/*` answered since it started. */
async function upstreamStats(sandbox: string): Promise<UpstreamStats> {
  const response = await fetch(`${sandbox}/_sandbox/stats`, { headers: { authorization: SANDBOX_AUTH } });
  if (response.status !== 200) throw new Error(`/_sandbox/stats: ${response.status}`);
  return (await response.json()) as UpstreamStats;
}

function traffic(before: UpstreamStats, after: UpstreamStats) {
  const refused = (after.by_status['429'] ?? 0) - (before.by_status['429'] ?? 0);
  return { requests: after.requests - before.requests, refused };
}

type Outcome<T> = { ok: true; value: T; ms: number } | { ok: false; ms: number };

/** Runs one step with a deadline (its fetches take the signal); a step that fails or runs out says so and goes on. */
async function step<T>(
  label: string,
  work: (signal: AbortSignal) => Promise<T>,
  timeoutMs = STEP_TIMEOUT_MS,
): Promise<Outcome<T>> {
  const signal = AbortSignal.timeout(timeoutMs);
  const started = performance.now();
  try {
    const value = await work(signal);
    return { ok: true, value, ms: performance.now() - started };
  } catch (error) {
    const why = signal.aborted ? `timed out after ${timeoutMs / 1000} s` : (error as Error).message;
    console.log(`  ${label}: NOT MET, ${why}`);
    return { ok: false, ms: performance.now() - started };
  }
}

/** A figure of a step: its value, or NaN and not met when the step did not finish (the reason is printed). */
function figure<T>(
  name: string,
  outcome: Outcome<T>,
  value: (done: { value: T; ms: number }) => number,
  unit: string,
  target: (value: number) => Pick<BenchFigure, 'target' | 'ok'>,
): BenchFigure {
  // NaN meets no target.
  const v = outcome.ok ? value(outcome) : Number.NaN;
  return { name, value: v, unit, ...target(v) };
}

const round = (n: number, digits = 2) => Number(n.toFixed(digits));
const noTarget = () => ({});

async function bffJson<T>(
  origin: string,
  session: Session,
  path: string,
  company: string,
  signal: AbortSignal,
): Promise<T> {
  const response = await fetch(`${origin}${path}`, {
    headers: { ...session, [COMPANY_HEADER]: company, accept: 'application/json' },
    signal,
  });
  const text = await response.text();
  if (response.status !== 200)
    throw new Error(`${path} (${company}): ${response.status} ${text.slice(0, 200)}`);
  return JSON.parse(text) as T;
}

/** A CSV download read to its end: the text. */
async function exportText(origin: string, session: Session, company: string, signal: AbortSignal) {
  const response = await fetch(`${origin}/api/payments/export.csv`, {
    headers: { ...session, [COMPANY_HEADER]: company },
    signal,
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`export ${company}: ${response.status} ${text.slice(0, 200)}`);
  return text;
}

/** The median time of one upstream page at limit 100, asked straight at the sandbox one after another. */
async function pageLatency(sandbox: string): Promise<number> {
  const samples: number[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < PAGE_LATENCY_SAMPLES; i++) {
    const query = cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`;
    const started = performance.now();
    const response = await fetch(`${sandbox}/v1/payments/?limit=100${query}`, {
      headers: { authorization: SANDBOX_AUTH, [COMPANY_HEADER]: COMPANY },
    });
    const page = (await response.json()) as { next_cursor: string | null };
    if (response.status !== 200) throw new Error(`sandbox page: ${response.status}`);
    samples.push(performance.now() - started);
    cursor = page.next_cursor;
  }
  return median(samples);
}

/** What the BFF's log says about the upstream: failed attempts by outcome, and its slowest requests. */
function logDigest(label: string, logFile: string): void {
  const failed = new Map<string, number>();
  const requests: { path: string; status: number; ms: number; attempts: number; user: string }[] = [];
  for (const line of readFileSync(logFile, 'utf8').split('\n')) {
    if (!line.startsWith('{')) continue;
    const entry = JSON.parse(line) as Record<string, unknown>;
    if (entry.msg === 'upstream') {
      const key = entry.status === undefined ? String(entry.outcome) : `status ${entry.status}`;
      failed.set(key, (failed.get(key) ?? 0) + 1);
    } else if (entry.msg === 'request')
      requests.push({
        path: String(entry.path),
        status: Number(entry.status),
        ms: Number(entry.duration_ms),
        attempts: Number(entry.upstream_attempts),
        user: String(entry.user),
      });
  }
  const failures = [...failed].map(([key, n]) => `${key}: ${n}`).join(', ') || 'none';
  console.log(`  ${label} log: upstream attempts failed: ${failures}`);
  const list = requests.filter((r) => r.path === '/api/payments');
  const slowest = list.reduce((max, r) => (r.ms > max.ms ? r : max), { ms: 0, attempts: 0 });
  const failedPages = list.filter((r) => r.status !== 200).length;
  const several = new Map<string, number>();
  for (const r of list) if (r.attempts > 1) several.set(r.user, (several.get(r.user) ?? 0) + 1);
  const byUser = [...several].map(([user, n]) => `${user} ${n}`).join(', ') || 'none';
  console.log(
    `  ${label} log: ${list.length} list pages, ${failedPages} failed, slowest ${slowest.ms} ms (${slowest.attempts} upstream requests); pages that took more than one upstream request (retries, date_to skips): ${byUser}`,
  );
}

interface Running {
  sandbox: string;
  env: (port: number) => Record<string, string>;
  dir: string;
  rows: Map<string, Row[]>;
  pageMs: number;
}

async function startBff(running: Running, name: string, keep: (child: ChildProcess) => void) {
  const logFile = join(running.dir, `${name}.log`);
  const bff = await spawnBff(running.env(await freePort()), logFile, keep);
  return { ...bff, logFile };
}

/** The first page of a month a year back; checked against the oracle's first row of that month. */
async function monthFirstPage(origin: string, session: Session, running: Running, signal: AbortSignal) {
  const rows = running.rows.get(COMPANY) ?? [];
  const { month } = ranges(rows[0]?.created_at ?? '');
  const path = `/api/payments?limit=50&date_from=${month.from}&date_to=${month.to}`;
  const page = await bffJson<{ data: Row[] }>(origin, session, path, COMPANY, signal);
  const expected = inRange(rows, month.from, month.to)[0]?.id;
  if (page.data[0]?.id !== expected) throw new Error(`first row ${page.data[0]?.id}, expected ${expected}`);
}

/** Figures 2 (cold) and 7: a fresh BFF, nothing walked. */
async function coldFigures(running: Running, keep: (child: ChildProcess) => void) {
  const bff = await startBff(running, 'cold-bff', keep);
  try {
    const session = await signInHeaders(bff.origin, PASSWORD);
    const month = await step('cold month first page', (signal) =>
      monthFirstPage(bff.origin, session, running, signal),
    );
    const exportRows = running.rows.get(EXPORT_COMPANY)?.length ?? 0;
    const before = await upstreamStats(running.sandbox);
    const cpuBefore = cpuMsOf(bff.pid);
    const exported = await step('cold export', async (signal) => {
      const records = parseCsv(await exportText(bff.origin, session, EXPORT_COMPANY, signal), { bom: true });
      if (records.length - 1 !== exportRows)
        throw new Error(`the export holds ${records.length - 1} rows, expected ${exportRows}`);
    });
    const cpuMs = cpuMsOf(bff.pid) - cpuBefore;
    const exportTraffic = traffic(before, await upstreamStats(running.sandbox));
    const walkMs = pagesOf(exportRows) * running.pageMs;
    console.log(
      `  cold export of ${EXPORT_COMPANY}: ${exportRows} rows, ${pagesOf(exportRows)} pages, ${exportTraffic.requests} upstream requests (${exportTraffic.refused} refused), one after another ${(walkMs / 1000).toFixed(1)} s; BFF CPU ${(cpuMs / pagesOf(exportRows)).toFixed(1)} ms a page`,
    );
    logDigest('cold BFF', bff.logFile);
    return {
      month: figure(
        '2. month a year back, first page, cold BFF: time',
        month,
        (d) => d.ms / 1000,
        's',
        noTarget,
      ),
      export: [
        figure(`7. cold export of ${EXPORT_COMPANY}: time`, exported, (d) => d.ms / 1000, 's', noTarget),
        figure(
          '7. cold export: time ÷ (its pages × single-page latency)',
          exported,
          (d) => d.ms / walkMs,
          '×',
          (v) => atMost(v, 1.1),
        ),
      ],
    };
  } finally {
    bff.process.kill('SIGKILL');
  }
}

/** Figure 1: 24 browsers open the same view at once. */
async function sameViewFigures(origin: string, running: Running): Promise<BenchFigure[]> {
  const sessions: Session[] = [];
  for (let i = 0; i < BROWSERS; i++) sessions.push(await signInHeaders(origin, PASSWORD));
  const before = await upstreamStats(running.sandbox);
  const path = `/api/payments?${SHARED_VIEW.query}`;
  const opened = await step('24 browsers, one view', (signal) =>
    Promise.all(
      sessions.map(async (session) => {
        const started = performance.now();
        const page = await bffJson<{ data: Row[] }>(origin, session, path, SHARED_VIEW.company, signal);
        return { first: page.data[0]?.id, ms: performance.now() - started };
      }),
    ),
  );
  const caused = traffic(before, await upstreamStats(running.sandbox));
  if (opened.ok && new Set(opened.value.map((o) => o.first)).size !== 1)
    console.log('  24 browsers: the answers differ');
  return [
    figure(
      `1. ${BROWSERS} browsers open one view at once: upstream requests`,
      opened,
      () => caused.requests,
      'req',
      (v) => atMost(v, 3),
    ),
    figure('1. … slowest browser', opened, (d) => Math.max(...d.value.map((o) => o.ms)), 'ms', noTarget),
  ];
}

/** Figures 2 (after a walk), 3 and 4, one after another on the same BFF. */
async function walkedFigures(origin: string, running: Running) {
  const session = await signInHeaders(origin, PASSWORD);
  const rows = running.rows.get(COMPANY) ?? [];
  const summaryOf = (query: string, company: string, signal: AbortSignal) =>
    bffJson<Summary>(origin, session, `/api/payments/summary${query}`, company, signal);
  const figures: BenchFigure[] = [];

  let before = await upstreamStats(running.sandbox);
  const walk = await step('the walk', async (signal) => {
    const summary = await summaryOf('', COMPANY, signal);
    if (summary.count !== rows.length) throw new Error(`counted ${summary.count}, expected ${rows.length}`);
  });
  let caused = traffic(before, await upstreamStats(running.sandbox));
  console.log(
    `  the walk (${COMPANY}'s whole-list summary): ${rows.length} rows, ${(walk.ms / 1000).toFixed(1)} s, ${caused.requests} upstream requests (${caused.refused} refused)`,
  );

  const month = await step('month first page', (signal) => monthFirstPage(origin, session, running, signal));
  const monthFigure = figure(
    `2. month a year back, first page, ${COMPANY} walked once: time`,
    month,
    (d) => d.ms / 1000,
    's',
    (v) => atMost(v, 1),
  );

  const { half } = ranges(rows[0]?.created_at ?? '');
  const halfRows = inRange(rows, half.from, half.to);
  const halfTarget = round((1.5 * pagesOf(halfRows.length)) / UPSTREAM_RPS + 0.5);
  let problems: string[] = [];
  before = await upstreamStats(running.sandbox);
  const halfYear = await step('half-year summary', async (signal) => {
    problems = differences(
      await summaryOf(`?date_from=${half.from}&date_to=${half.to}`, COMPANY, signal),
      halfRows,
    );
  });
  caused = traffic(before, await upstreamStats(running.sandbox));
  if (problems.length > 0) console.log(`  half-year summary differs from the oracle: ${problems.join('; ')}`);
  console.log(
    `  half-year ${half.from.slice(0, 10)}..${half.to.slice(0, 10)}: ${halfRows.length} rows, ${pagesOf(halfRows.length)} pages; ${caused.requests} upstream requests (${caused.refused} refused)`,
  );
  figures.push(
    figure(
      `3. half-year summary of ${COMPANY}: time`,
      halfYear,
      (d) => d.ms / 1000,
      's',
      (v) => atMost(v, halfTarget),
    ),
    figure(
      '3. half-year summary: exact (1 = equal to the oracle)',
      halfYear,
      () => (problems.length === 0 ? 1 : 0),
      '',
      (v) => atLeast(v, 1),
    ),
  );

  // 8. The same half-year searched (an amount range): every row read again, matches exact, against the summary.
  const amountRange = { low: 100, high: 300 };
  const expectedMatches = halfRows.filter((row) => {
    const scale = 10 ** (currencyExponent(row.currency) ?? 2);
    return row.amount >= amountRange.low * scale && row.amount <= amountRange.high * scale;
  }).length;
  // Past UPSTREAM_PAGE_REUSE_MS (1 s): the summary's pages are not reused, the search reads the upstream itself.
  await sleep(1_500);
  before = await upstreamStats(running.sandbox);
  const searched = await step('half-year search', async (signal) => {
    const q = encodeURIComponent(`${amountRange.low}..${amountRange.high}`);
    const path = `/api/payments/search?q=${q}&date_from=${half.from}&date_to=${half.to}`;
    const found = await searchStream(origin, session, path, COMPANY, signal);
    if (found.found !== expectedMatches || found.read !== halfRows.length)
      throw new Error(
        `read ${found.read} of ${halfRows.length} rows, found ${found.found} of ${expectedMatches}`,
      );
    return found;
  });
  caused = traffic(before, await upstreamStats(running.sandbox));
  console.log(
    `  half-year search ${amountRange.low}..${amountRange.high}: ${expectedMatches} matches; ${caused.requests} upstream requests (${caused.refused} refused)`,
  );
  figures.push(
    figure('8. half-year search: time', searched, (d) => d.ms / 1000, 's', noTarget),
    figure(
      '8. half-year search: time ÷ the half-year summary (exact)',
      searched,
      (d) => (halfYear.ok ? d.ms / halfYear.ms : Number.NaN),
      '×',
      (v) => atMost(v, 1.5),
    ),
  );

  const group = [...running.rows.values()];
  const groupPages = group.reduce((sum, list) => sum + pagesOf(list.length), 0);
  const oneAfterAnotherMs = groupPages * running.pageMs;
  let groupProblems: string[] = [];
  before = await upstreamStats(running.sandbox);
  const groupSummary = await step('group summary', async (signal) => {
    groupProblems = differences(await summaryOf('?group=true', ROOT, signal), group.flat());
  });
  caused = traffic(before, await upstreamStats(running.sandbox));
  if (groupProblems.length > 0)
    console.log(`  group summary differs from the oracle: ${groupProblems.join('; ')}`);
  console.log(
    `  group summary: ${group.flat().length} rows in ${group.length} companies, ${groupPages} pages, one after another ${(oneAfterAnotherMs / 1000).toFixed(1)} s; ${caused.requests} upstream requests (${caused.refused} refused)`,
  );
  figures.push(
    figure('4. group summary: time', groupSummary, (d) => d.ms / 1000, 's', noTarget),
    figure(
      '4. group summary: time ÷ its pages one after another',
      groupSummary,
      (d) => d.ms / oneAfterAnotherMs,
      '×',
      (v) => atMost(v, 0.5),
    ),
    figure(
      '4. group summary: exact (1 = equal to the oracle)',
      groupSummary,
      () => (groupProblems.length === 0 ? 1 : 0),
      '',
      (v) => atLeast(v, 1),
    ),
  );
  return { month: monthFigure, figures };
}

/** Ids as the BFF orders ties: digits as numbers, anything else as its text. */
function compareIds(a: string, b: string) {
  if (/^\d+$/.test(a) && /^\d+$/.test(b) && a.length !== b.length) return a.length - b.length;
  return a < b ? -1 : a > b ? 1 : 0;
}

interface SortedPage {
  data: Row[];
  company_ids: string[];
  next_cursor: string | null;
  total: number;
}

/** Figures 9 and 10: month-end questions of the group's last full month, after figure 4 walked the group. */
async function monthEndFigures(origin: string, running: Running): Promise<BenchFigure[]> {
  const session = await signInHeaders(origin, PASSWORD);
  const newest =
    [...running.rows.values()]
      .map((list) => list[0]?.created_at ?? '')
      .toSorted()
      .at(-1) ?? '';
  const month = monthBefore(newest, 1);
  const monthRows = [...running.rows].map(([company, list]) => ({
    company,
    rows: inRange(list, month.from, month.to),
  }));
  const pages = monthRows.map(({ rows }) => pagesOf(rows.length));
  const monthPages = pages.reduce((sum, n) => sum + n, 0);
  const floorMs = Math.max((1000 * monthPages) / UPSTREAM_RPS, Math.max(...pages) * running.pageMs);
  const target = round((1.2 * floorMs) / 1000 + 0.5);
  // The oracle: by currency, then amount largest first, then id, then company.
  const expected = monthRows
    .flatMap(({ company, rows }) => rows.map((row) => ({ company, row })))
    .sort(
      (a, b) =>
        (a.row.currency < b.row.currency ? -1 : a.row.currency > b.row.currency ? 1 : 0) ||
        b.row.amount - a.row.amount ||
        compareIds(a.row.id, b.row.id) ||
        (a.company < b.company ? -1 : a.company > b.company ? 1 : 0),
    )
    .map(({ company, row }) => `${company} ${row.id}`);
  const range = `date_from=${month.from}&date_to=${month.to}`;
  const keysOf = (page: SortedPage) => page.data.map((row, i) => `${page.company_ids[i]} ${row.id}`);
  // Past UPSTREAM_PAGE_REUSE_MS: figure 4's pages are not reused, the sorted walk reads the upstream itself.
  await sleep(1_500);
  let before = await upstreamStats(running.sandbox);
  let next: string | null = null;
  const first = await step('sorted month, first rows', async (signal) => {
    const page = await bffJson<SortedPage>(
      origin,
      session,
      `/api/payments?group=true&sort=amount:desc&limit=50&${range}`,
      ROOT,
      signal,
    );
    const got = keysOf(page);
    if (got.join() !== expected.slice(0, got.length).join() || page.total !== expected.length)
      throw new Error(
        `first rows ${got.slice(0, 3).join(', ')}…, expected ${expected.slice(0, 3).join(', ')}…`,
      );
    next = page.next_cursor;
    return got;
  });
  const sortWalk = traffic(before, await upstreamStats(running.sandbox));
  before = await upstreamStats(running.sandbox);
  const scrolled = await step('sorted month, scrolled to its end', async (signal) => {
    const seen = first.ok ? [...first.value] : [];
    let scrolls = 0;
    while (next !== null) {
      const page: SortedPage = await bffJson<SortedPage>(
        origin,
        session,
        `/api/payments?group=true&sort=amount:desc&limit=100&${range}&cursor=${encodeURIComponent(next)}`,
        ROOT,
        signal,
      );
      seen.push(...keysOf(page));
      next = page.next_cursor;
      scrolls += 1;
    }
    if (seen.join() !== expected.join())
      throw new Error(`scrolled ${seen.length} rows, expected ${expected.length}, in the oracle's order`);
    return scrolls;
  });
  const scroll = traffic(before, await upstreamStats(running.sandbox));
  console.log(
    `  sorted month ${month.from.slice(0, 7)} of ${ROOT}'s group by amount: ${expected.length} rows, ${monthPages} pages, floor ${(floorMs / 1000).toFixed(2)} s (${monthPages} ÷ ${UPSTREAM_RPS}/s, or ${Math.max(...pages)} × ${running.pageMs.toFixed(0)} ms); first rows after ${sortWalk.requests} upstream requests (${sortWalk.refused} refused); scrolled in ${scrolled.ok ? scrolled.value : '?'} pages, ${scroll.requests} upstream requests`,
  );

  // 10. The same month's group figures, a Refresh: its per-company lines come from the same walk.
  let problems: string[] = [];
  before = await upstreamStats(running.sandbox);
  const breakdown = await step('group month with its breakdown', async (signal) => {
    const summary = await bffJson<Summary>(
      origin,
      session,
      `/api/payments/summary?group=true&fresh=true&${range}`,
      ROOT,
      signal,
    );
    problems = differences(
      summary,
      monthRows.flatMap(({ rows }) => rows),
    );
    for (const { company, rows } of monthRows) {
      const line = summary.companies?.find((c) => c.company_id === company);
      if (line === undefined) problems.push(`no line for ${company}`);
      else if (line.count !== rows.length)
        problems.push(`${company}: ${line.count}, expected ${rows.length}`);
      else
        for (const total of line.totals) {
          const minor = rows
            .filter((row) => row.currency === total.currency)
            .reduce((sum, row) => sum + BigInt(row.amount), 0n);
          if (minorUnits(total.total, total.currency) !== minor)
            problems.push(`${company} ${total.currency}: ${total.total}, expected ${minor} minor`);
        }
    }
  });
  const counted = traffic(before, await upstreamStats(running.sandbox));
  if (problems.length > 0)
    console.log(`  group month breakdown differs from the oracle: ${problems.join('; ')}`);
  console.log(
    `  group month ${month.from.slice(0, 7)} with its breakdown (Refresh): ${counted.requests} upstream requests (${counted.refused} refused); the sorted walk of the month took ${sortWalk.requests}`,
  );
  return [
    figure(
      '9. group month sorted by amount, walked before: first rows',
      first,
      (d) => d.ms / 1000,
      's',
      (v) => atMost(v, target),
    ),
    figure('9. … ÷ (reachable floor + 0.5 s)', first, (d) => d.ms / (floorMs + 500), '×', noTarget),
    figure(
      '9. … scrolled to its end: upstream requests',
      scrolled,
      () => scroll.requests,
      'req',
      (v) => atMost(v, 0),
    ),
    figure(
      '10. group month with per-company breakdown (Refresh): time',
      breakdown,
      (d) => d.ms / 1000,
      's',
      noTarget,
    ),
    figure(
      '10. … breakdown exact (1 = equal to the oracle)',
      breakdown,
      () => (problems.length === 0 ? 1 : 0),
      '',
      (v) => atLeast(v, 1),
    ),
    // One walk of the month at the same remembered positions: figure 9's, which read every row of it.
    figure(
      '10. … time ÷ one walk of the month (figure 9)',
      breakdown,
      (d) => (first.ok ? d.ms / first.ms : Number.NaN),
      '×',
      (v) => atMost(v, 1.1),
    ),
    figure(
      '10. … upstream requests ÷ one walk of the month (figure 9)',
      breakdown,
      () => counted.requests / sortWalk.requests,
      '×',
      (v) => atMost(v, 1.1),
    ),
  ];
}

/** Views nobody asked before: every company, status and date_from, in an order that changes company each time. */
function lightViews(companies: readonly string[]) {
  const statuses = ['COMPLETED', 'AWAITING', 'FAILED', 'CANCELLED'];
  const froms = [
    '',
    '&date_from=2025-01-01T00:00:00',
    '&date_from=2025-09-01T00:00:00',
    '&date_from=2026-02-01T00:00:00',
  ];
  const views: { company: string; path: string }[] = [];
  for (const from of froms)
    for (const status of statuses)
      for (const company of companies)
        views.push({ company, path: `/api/payments?limit=50&status=${status}${from}` });
  return views;
}

/** Downloads read as fast as they come, one after another through `companies`, until `signal`. */
async function exportsUntil(origin: string, session: Session, companies: string[], signal: AbortSignal) {
  const done = { lines: 0, complete: 0 };
  for (let i = 0; !signal.aborted; i++) {
    const company = companies[i % companies.length] ?? ROOT;
    try {
      const response = await fetch(`${origin}/api/payments/export.csv`, {
        headers: { ...session, [COMPANY_HEADER]: company },
        signal,
      });
      if (response.status !== 200 || response.body === null) {
        console.log(`  load: export ${company} answered ${response.status}`);
        await sleep(1_000, undefined, { signal });
        continue;
      }
      for await (const chunk of response.body)
        for (const byte of chunk as Uint8Array) if (byte === 10) done.lines += 1;
      done.complete += 1;
    } catch (error) {
      if (!signal.aborted) console.log(`  load: export ${company} broke: ${(error as Error).message}`);
    }
  }
  return done;
}

/** Group summaries one after another until `signal`, each of a question not asked before (so none is cached). */
async function groupSummariesUntil(origin: string, session: Session, user: number, signal: AbortSignal) {
  let complete = 0;
  for (let i = 0; !signal.aborted; i++) {
    // Seconds after midnight on the first day: before every seeded row, so each counts every row of the group.
    const second = 2 * i + user;
    const at = new Date(Date.UTC(2024, 0, 1, 0, 0, second)).toISOString().slice(0, 19);
    try {
      await bffJson(origin, session, `/api/payments/summary?group=true&date_from=${at}`, ROOT, signal);
      complete += 1;
    } catch (error) {
      if (signal.aborted) break;
      console.log(`  load: group summary failed: ${(error as Error).message}`);
      await sleep(1_000);
    }
  }
  return complete;
}

/** Figures 5 and 6: a light user idle, then beside two heavy users. */
async function loadFigures(origin: string, running: Running): Promise<BenchFigure[]> {
  const [light, ana, bob] = await Promise.all(
    ['light', 'ana', 'bob'].map((u) => signInHeaders(origin, PASSWORD, u)),
  );
  if (!light || !ana || !bob) throw new Error('sign-in');
  const views = lightViews([...running.rows.keys()]);
  let next = 0;
  let failures = 0;
  const sample = async () => {
    const view = views[next++ % views.length] as (typeof views)[number];
    const started = performance.now();
    try {
      await bffJson(origin, light, view.path, view.company, AbortSignal.timeout(LIGHT_TIMEOUT_MS));
      return performance.now() - started;
    } catch (error) {
      failures += 1;
      console.log(`  light user: ${(error as Error).message}`);
      return undefined;
    } finally {
      await sleep(Math.max(0, LIGHT_INTERVAL_MS - (performance.now() - started)));
    }
  };
  const idle: number[] = [];
  for (let i = 0; i < IDLE_SAMPLES; i++) {
    const ms = await sample();
    if (ms !== undefined) idle.push(ms);
  }

  const stop = new AbortController();
  const before = await upstreamStats(running.sandbox);
  // Each heavy user keeps two downloads and a group summary going for the whole window.
  const exports = Promise.all([
    exportsUntil(origin, ana, [ROOT, 'acme-eu'], stop.signal),
    exportsUntil(origin, ana, [COMPANY, 'acme-us'], stop.signal),
    exportsUntil(origin, bob, [EXPORT_COMPANY, 'acme-jp'], stop.signal),
    exportsUntil(origin, bob, ['acme-eu-fr', ROOT], stop.signal),
  ]);
  const summaries = Promise.all(
    [ana, bob].map((session, i) => groupSummariesUntil(origin, session, i, stop.signal)),
  );
  await sleep(LOAD_RAMP_MS);
  const loaded: number[] = [];
  const end = performance.now() + LOAD_WINDOW_MS;
  while (performance.now() < end) {
    const ms = await sample();
    if (ms !== undefined) loaded.push(ms);
  }
  const caused = traffic(before, await upstreamStats(running.sandbox));
  stop.abort();
  const downloads = await exports;
  const csvLines = downloads.reduce((sum, d) => sum + d.lines, 0);
  const downloadsComplete = downloads.reduce((sum, d) => sum + d.complete, 0);
  const summariesComplete = (await summaries).reduce((sum, n) => sum + n, 0);

  const idleP50 = median(idle);
  const loadP95 = percentile(loaded, 95);
  const share = caused.requests === 0 ? 0 : (100 * caused.refused) / caused.requests;
  console.log(
    `  load window ${(LOAD_RAMP_MS + LOAD_WINDOW_MS) / 1000} s: ${caused.requests} upstream requests (${(caused.requests / ((LOAD_RAMP_MS + LOAD_WINDOW_MS) / 1000)).toFixed(1)}/s), ${caused.refused} refused; the exports received ${csvLines} CSV lines (${downloadsComplete} downloads complete), ${summariesComplete} group summaries complete`,
  );
  return [
    { name: '5. light user, idle: p50', value: idleP50, unit: 'ms' },
    { name: '5. light user, during 4 exports and 2 group summaries: p50', value: median(loaded), unit: 'ms' },
    {
      name: '5. light user, during the load: p95',
      value: loadP95,
      unit: 'ms',
      ...atMost(loadP95, round(3 * idleP50, 0)),
    },
    { name: '5. light user, during the load: slowest', value: Math.max(...loaded), unit: 'ms' },
    { name: '5. light user: pages asked during the load', value: loaded.length, unit: 'req' },
    { name: '5. light user: failed pages', value: failures, unit: 'req', ...atMost(failures, 0) },
    { name: '6. upstream requests during 5', value: caused.requests, unit: 'req' },
    { name: '6. … refused with 429', value: share, unit: '%', ...atMost(share, 2) },
  ];
}

async function run(): Promise<BenchFigure[]> {
  const dir = await mkdtemp(join(tmpdir(), 'remote-bench-'));
  const children: ChildProcess[] = [];
  const keep = (child: (typeof children)[number]) => children.push(child);
  const killAll = () => {
    for (const child of children) child.kill('SIGKILL');
  };
  process.once('exit', killAll);
  try {
    const sandbox = await spawnSandbox(
      {
        SANDBOX_PORT: String(await freePort()),
        SANDBOX_SEED_COUNT: String(SEED_COUNT),
        SANDBOX_SEED_END: '2026-06-01T00:00:00Z',
        SANDBOX_FAULTS: FAULTS,
      },
      join(dir, 'sandbox.log'),
      keep,
    );
    const companies = join(dir, 'companies.json');
    const tree = await fetch(`${sandbox.origin}/_sandbox/companies`, {
      headers: { authorization: SANDBOX_AUTH },
    });
    await writeFile(companies, await tree.text());
    const users = join(dir, 'users.json');
    for (const user of USERS) await addUser(users, user);
    const appSecret = randomBytes(32).toString('base64url');
    const all = await oracleRows();
    const tenantTree = (JSON.parse(readFileSync(companies, 'utf8')) as { id: string }[]).map((c) => c.id);
    const rows = new Map(tenantTree.map((id) => [id, all.get(id) ?? []]));
    const running: Running = {
      sandbox: sandbox.origin,
      dir,
      rows,
      pageMs: await pageLatency(sandbox.origin),
      env: (port) => ({
        PORT: String(port),
        PAYMENTS_BASE_URL: `${sandbox.origin}/v1`,
        PAYMENTS_SECRET_ID: 'sandbox_id',
        PAYMENTS_SECRET_PASSWORD: 'sandbox_secret',
        PAYMENTS_COMPANIES_FILE: companies,
        AUTH_USERS_FILE: users,
        APP_SECRET: appSecret,
        // The users file's demo has this password too: the same sign-in with or without the file.
        DEMO_PASSWORD: PASSWORD,
        LOG_FORMAT: 'json',
        UPSTREAM_MAX_RPS: String(UPSTREAM_RPS),
        WEB_DIST_DIR: join(dir, 'no-spa'),
      }),
    };
    const groupRows = [...rows.values()].reduce((sum, list) => sum + list.length, 0);
    const companyRows = rows.get(COMPANY)?.length ?? 0;
    console.log(
      `  sandbox: ${groupRows} rows in ${ROOT}'s group, ${companyRows} in ${COMPANY}; single page at limit 100: ${running.pageMs.toFixed(1)} ms`,
    );
    const cold = await coldFigures(running, keep);
    const bff = await startBff(running, 'bff', keep);
    const sameView = await sameViewFigures(bff.origin, running);
    const walked = await walkedFigures(bff.origin, running);
    const monthEnd = await monthEndFigures(bff.origin, running);
    const load = await loadFigures(bff.origin, running);
    logDigest('BFF', bff.logFile);
    return [
      { name: `rows in ${ROOT}'s group`, value: groupRows, unit: 'rows' },
      { name: `rows of ${COMPANY}`, value: companyRows, unit: 'rows' },
      {
        name: 'single upstream page at limit 100, straight at the sandbox: p50',
        value: running.pageMs,
        unit: 'ms',
      },
      ...sameView,
      walked.month,
      cold.month,
      ...walked.figures,
      ...monthEnd,
      ...load,
      ...cold.export,
    ];
  } finally {
    killAll();
    process.off('exit', killAll);
    await rm(dir, { recursive: true, force: true });
  }
}

export const suite: BenchSuite = {
  name: 'remote: the BFF against a sandbox 100 ms away at 40 requests/s, shared by every user',
  run,
};

/*
 * Profile `forgetful` (`pnpm bench remote:forgetful`): an upstream that forgets, as the spec allows. The sandbox
 * answers in 200 ms, 25 requests/s for everyone, refuses cursors 60 s after it issued them (410) and settles 2
 * AWAITING payments a second; the BFF is told the rate but not the cursor lifetime (it learns it). About 300,000
 * payments in the group (FORGETFUL_SEED_COUNT seeds, 400,000 by default; a smaller one runs faster, and says so).
 * Figures, each with its target:
 * F1. The group's last full month, cold: time ÷ the reachable floor (≤ 1.15).
 * F2. The quarter of that month and the two before, after the three were counted: time (≤ 0.5 s).
 * F3. Its Refresh: time ÷ the reachable floor (≤ 1.15).
 * F4. A heavy mix over 100 s (downloads, month summaries and lists into the past, pauses longer than a cursor
 *     lives): upstream requests spent on refused cursors, as a share of all (≤ 3 %).
 * The reachable floor of a walk: its pages from the top ÷ the rate, or its largest company's pages × the page
 * latency, whichever is larger.
 */
const FORGETFUL_FAULTS = 'latency_ms=200,rate_limit_rps=25,cursor_ttl_s=60,settle_rps=2';
const FORGETFUL_RPS = 25;
const FORGETFUL_SEED_COUNT = Number(process.env.FORGETFUL_SEED_COUNT ?? 400_000);
const MIX_MS = 100_000;

/** The calendar month `back` months before the one of `newest`, as a date_from and a date_to. */
function monthBefore(newest: string, back: number) {
  const first = new Date(Date.UTC(Number(newest.slice(0, 4)), Number(newest.slice(5, 7)) - 1 - back, 1));
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0));
  const day = (d: Date) => d.toISOString().slice(0, 10);
  return { from: `${day(first)}T00:00:00`, to: `${day(last)}T23:59:59` };
}

/** The reachable floor of a group walk down to `from`: its pages ÷ the rate, or its largest company's × latency. */
function floorMs(rows: Map<string, Row[]>, from: string, pageMs: number) {
  const pages = [...rows.values()].map((list) =>
    pagesOf(list.filter((row) => row.created_at >= from).length + 1),
  );
  const total = pages.reduce((sum, n) => sum + n, 0);
  return { pages: total, ms: Math.max((1000 * total) / FORGETFUL_RPS, Math.max(...pages) * pageMs) };
}

function refusedCursors(before: UpstreamStats, after: UpstreamStats) {
  return {
    requests: after.requests - before.requests,
    expired: (after.by_status['410'] ?? 0) - (before.by_status['410'] ?? 0),
    limited: (after.by_status['429'] ?? 0) - (before.by_status['429'] ?? 0),
  };
}

/** Users asking into the past until `signal`: month summaries, list pages with a date_to, and downloads. */
async function heavyMix(origin: string, sessions: Session[], newest: string, signal: AbortSignal) {
  let done = 0;
  let failed = 0;
  const ask = async (path: string, company: string) => {
    try {
      await bffJson(origin, sessions[done % sessions.length] as Session, path, company, signal);
      done += 1;
    } catch (error) {
      if (!signal.aborted) {
        failed += 1;
        console.log(`  mix: ${path}: ${(error as Error).message}`);
      }
    }
  };
  const pastPages = async () => {
    for (let i = 0; !signal.aborted; i++) {
      const month = monthBefore(newest, 1 + (i % 12));
      await ask(`/api/payments?limit=50&date_to=${month.to}`, ROOT);
      // A person reads a while: some pauses outlast a cursor.
      await sleep(i % 4 === 3 ? 65_000 : 3_000, undefined, { signal }).catch(() => undefined);
    }
  };
  const monthSummaries = async () => {
    for (let i = 0; !signal.aborted; i++) {
      const month = monthBefore(newest, 4 + (i % 9));
      await ask(
        `/api/payments/summary?group=true&fresh=true&date_from=${month.from}&date_to=${month.to}`,
        ROOT,
      );
      await sleep(i % 3 === 2 ? 65_000 : 5_000, undefined, { signal }).catch(() => undefined);
    }
  };
  const downloads = async () => {
    const companies = ['acme-eu-fr', 'acme-jp', EXPORT_COMPANY];
    for (let i = 0; !signal.aborted; i++) {
      try {
        await exportText(
          origin,
          sessions[i % sessions.length] as Session,
          companies[i % 3] as string,
          signal,
        );
        done += 1;
      } catch (error) {
        if (!signal.aborted) {
          failed += 1;
          console.log(`  mix: export: ${(error as Error).message}`);
        }
      }
    }
  };
  await Promise.all([pastPages(), monthSummaries(), downloads()]);
  return { done, failed };
}

async function runForgetful(): Promise<BenchFigure[]> {
  const dir = await mkdtemp(join(tmpdir(), 'remote-forgetful-'));
  const children: ChildProcess[] = [];
  const keep = (child: ChildProcess) => children.push(child);
  const killAll = () => {
    for (const child of children) child.kill('SIGKILL');
  };
  process.once('exit', killAll);
  try {
    const sandbox = await spawnSandbox(
      {
        SANDBOX_PORT: String(await freePort()),
        SANDBOX_SEED_COUNT: String(FORGETFUL_SEED_COUNT),
        SANDBOX_FAULTS: FORGETFUL_FAULTS,
      },
      join(dir, 'sandbox.log'),
      keep,
    );
    const companies = join(dir, 'companies.json');
    const tree = await fetch(`${sandbox.origin}/_sandbox/companies`, {
      headers: { authorization: SANDBOX_AUTH },
    });
    await writeFile(companies, await tree.text());
    const users = join(dir, 'users.json');
    for (const user of USERS) await addUser(users, user);
    const all = await oracleRows(FORGETFUL_SEED_COUNT);
    const tenantTree = (JSON.parse(readFileSync(companies, 'utf8')) as { id: string }[]).map((c) => c.id);
    const rows = new Map(tenantTree.map((id) => [id, all.get(id) ?? []]));
    const groupRows = [...rows.values()].reduce((sum, list) => sum + list.length, 0);
    const newest =
      [...rows.values()]
        .map((list) => list[0]?.created_at ?? '')
        .toSorted()
        .at(-1) ?? '';
    const running: Running = {
      sandbox: sandbox.origin,
      dir,
      rows,
      pageMs: await pageLatency(sandbox.origin),
      env: (port) => ({
        PORT: String(port),
        PAYMENTS_BASE_URL: `${sandbox.origin}/v1`,
        PAYMENTS_SECRET_ID: 'sandbox_id',
        PAYMENTS_SECRET_PASSWORD: 'sandbox_secret',
        PAYMENTS_COMPANIES_FILE: companies,
        AUTH_USERS_FILE: users,
        APP_SECRET: randomBytes(32).toString('base64url'),
        DEMO_PASSWORD: PASSWORD,
        LOG_FORMAT: 'json',
        UPSTREAM_MAX_RPS: String(FORGETFUL_RPS),
        WEB_DIST_DIR: join(dir, 'no-spa'),
      }),
    };
    console.log(
      `  sandbox (${FORGETFUL_SEED_COUNT} seeds): ${groupRows} rows in ${ROOT}'s group; single page at limit 100: ${running.pageMs.toFixed(1)} ms`,
    );
    const bff = await startBff(running, 'bff', keep);
    const session = await signInHeaders(bff.origin, PASSWORD);
    const summaryOf = (range: { from: string; to: string }, fresh: boolean, signal: AbortSignal) =>
      bffJson<Summary>(
        bff.origin,
        session,
        `/api/payments/summary?group=true&date_from=${range.from}&date_to=${range.to}${fresh ? '&fresh=true' : ''}`,
        ROOT,
        signal,
      );
    const months = [1, 2, 3].map((back) => monthBefore(newest, back));
    const quarter = { from: (months[2] as { from: string }).from, to: (months[0] as { to: string }).to };
    const countOf = (range: { from: string; to: string }) =>
      [...rows.values()].reduce((sum, list) => sum + inRange(list, range.from, range.to).length, 0);

    // F1: the last full month, cold.
    const monthFloor = floorMs(rows, (months[0] as { from: string }).from, running.pageMs);
    let before = await upstreamStats(running.sandbox);
    const cold = await step('cold month', async (signal) => {
      const summary = await summaryOf(months[0] as { from: string; to: string }, false, signal);
      if (summary.count !== countOf(months[0] as { from: string; to: string }))
        throw new Error(
          `counted ${summary.count}, expected ${countOf(months[0] as { from: string; to: string })}`,
        );
    });
    let spent = refusedCursors(before, await upstreamStats(running.sandbox));
    console.log(
      `  cold month ${months[0]?.from.slice(0, 7)}: ${countOf(months[0] as { from: string; to: string })} rows, floor ${monthFloor.pages} pages ${(monthFloor.ms / 1000).toFixed(1)} s; ${spent.requests} upstream requests (${spent.expired} refused cursors, ${spent.limited} 429)`,
    );
    // The two months before, counted as a person would ask them.
    for (const month of months.slice(1)) await step('month', (signal) => summaryOf(month, false, signal));

    // F2 and F3: the quarter, then its Refresh.
    const quarterRows = countOf(quarter);
    const quick = await step('quarter after its months', async (signal) => {
      const summary = await summaryOf(quarter, false, signal);
      if (summary.count !== quarterRows) throw new Error(`counted ${summary.count}, expected ${quarterRows}`);
      return summary.as_of;
    });
    const quarterFloor = floorMs(rows, quarter.from, running.pageMs);
    before = await upstreamStats(running.sandbox);
    const refreshed = await step('quarter Refresh', async (signal) => {
      const summary = await summaryOf(quarter, true, signal);
      if (summary.count !== quarterRows) throw new Error(`counted ${summary.count}, expected ${quarterRows}`);
    });
    spent = refusedCursors(before, await upstreamStats(running.sandbox));
    console.log(
      `  quarter ${quarter.from.slice(0, 10)}..${quarter.to.slice(0, 10)}: ${quarterRows} rows, as of ${quick.ok ? quick.value : '?'}; Refresh floor ${quarterFloor.pages} pages ${(quarterFloor.ms / 1000).toFixed(1)} s, ${spent.requests} upstream requests (${spent.expired} refused cursors)`,
    );

    // F4: the heavy mix.
    const sessions = await Promise.all(
      ['ana', 'bob', 'light'].map((u) => signInHeaders(bff.origin, PASSWORD, u)),
    );
    before = await upstreamStats(running.sandbox);
    const mix = await heavyMix(bff.origin, sessions, newest, AbortSignal.timeout(MIX_MS));
    spent = refusedCursors(before, await upstreamStats(running.sandbox));
    const share = spent.requests === 0 ? Number.NaN : (100 * spent.expired) / spent.requests;
    const learned = readFileSync(bff.logFile, 'utf8')
      .split('\n')
      .filter((line) => line.includes('"upstream_cursor_ttl"'));
    console.log(
      `  heavy mix ${MIX_MS / 1000} s: ${mix.done} answers, ${mix.failed} failed; ${spent.requests} upstream requests, ${spent.expired} refused cursors, ${spent.limited} 429; lifetime said: ${learned.join(' ') || 'never'}`,
    );
    logDigest('forgetful BFF', bff.logFile);
    return [
      { name: `rows in ${ROOT}'s group (${FORGETFUL_SEED_COUNT} seeds)`, value: groupRows, unit: 'rows' },
      { name: 'single upstream page at limit 100: p50', value: running.pageMs, unit: 'ms' },
      figure('F1. group month, cold: time', cold, (d) => d.ms / 1000, 's', noTarget),
      figure(
        'F1. … ÷ reachable floor',
        cold,
        (d) => d.ms / monthFloor.ms,
        '×',
        (v) => atMost(v, 1.15),
      ),
      figure(
        'F2. quarter after its months: time',
        quick,
        (d) => d.ms / 1000,
        's',
        (v) => atMost(v, 0.5),
      ),
      figure('F3. quarter Refresh: time', refreshed, (d) => d.ms / 1000, 's', noTarget),
      figure(
        'F3. … ÷ reachable floor',
        refreshed,
        (d) => d.ms / quarterFloor.ms,
        '×',
        (v) => atMost(v, 1.15),
      ),
      { name: 'F4. heavy mix: upstream requests', value: spent.requests, unit: 'req' },
      { name: 'F4. … on refused cursors', value: share, unit: '%', ...atMost(share, 3) },
      { name: 'F4. … failed answers', value: mix.failed, unit: 'req', ...atMost(mix.failed, 0) },
    ];
  } finally {
    killAll();
    process.off('exit', killAll);
    await rm(dir, { recursive: true, force: true });
  }
}

export const forgetfulSuite: BenchSuite = {
  name: 'remote, profile forgetful: 200 ms, 25 requests/s, cursors refused after 60 s, statuses changing',
  run: runForgetful,
};
