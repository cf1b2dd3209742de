/**
 * Search (`GET /api/payments/search`, streamed) over one company of about 40,000 rows, against one BFF process
 * started as `pnpm start` starts it in sandbox mode (its embedded sandbox on the same thread), over loopback:
 * - A search that matches nothing walks the whole list: rows read a second, first on a BFF that remembers no
 *   position of this company (≥ 30,000; its code paths warmed on another company, as on a server up a while), then once the list's positions are remembered (the walk split into parts read at once).
 *   Beside it, the same pages walked straight at the sandbox: the upstream's share.
 * - Searches for a payment among the newest 1,000 rows (by its id): the time to the first match (≤ 1 s), the walk
 *   going on behind it. What the browser adds to draw it is one render of a short list.
 * - Exact: each id search finds its one payment; an amount range finds what the same rows hold.
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { COMPANY_HEADER, currencyExponent } from '@payments/shared';
import { portsFrom, type SearchRun, searchStream, signInHeaders, spawnBff } from './bench-process.ts';
import { atLeast, atMost, type BenchFigure, type BenchSuite, median } from './report.ts';

/** The root `acme` gets 22 % of the seeded rows by default: 185,000 gives it about 40,000. */
const SEED_COUNT = 185_000;
const COMPANY = 'acme';
const PORTS = { from: 3700, to: 3749 };
const PASSWORD = 'search-bench-password';
const SANDBOX_AUTH = `Basic ${Buffer.from('sandbox_id:sandbox_secret').toString('base64')}`;
const NOTHING = 'no-such-payment-anywhere';
/** Where among the newest 1,000 rows the searched payments lie. */
const POSITIONS = [50, 250, 500, 750, 999];
const WARM_RUNS = 3;
const STEP_TIMEOUT_MS = 120_000;

const freePort = portsFrom(PORTS);

interface Row {
  id: string;
  amount: number;
  currency: string;
}

/** The company's list walked straight at the sandbox: its rows, and the time it took. */
async function directWalk(sandbox: string) {
  const rows: Row[] = [];
  let cursor: string | null = null;
  const started = performance.now();
  do {
    const after = cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`;
    const response = await fetch(`${sandbox}/v1/payments/?limit=100${after}`, {
      headers: { authorization: SANDBOX_AUTH, [COMPANY_HEADER]: COMPANY },
    });
    if (response.status !== 200) throw new Error(`sandbox: ${response.status} ${await response.text()}`);
    const page = (await response.json()) as { data: Row[]; next_cursor: string | null };
    for (const row of page.data) rows.push({ id: row.id, amount: row.amount, currency: row.currency });
    cursor = page.next_cursor;
  } while (cursor !== null);
  return { rows, ms: performance.now() - started };
}

const search = (origin: string, session: Record<string, string>, q: string) =>
  searchStream(
    origin,
    session,
    `/api/payments/search?q=${encodeURIComponent(q)}`,
    COMPANY,
    AbortSignal.timeout(STEP_TIMEOUT_MS),
  );

const rate = (run: SearchRun) => run.read / (run.ms / 1000);

/** Rows whose amount in major units lies in `low..high` (whole units). */
function inAmountRange(rows: readonly Row[], low: number, high: number): number {
  return rows.filter((row) => {
    const exponent = currencyExponent(row.currency) ?? 2;
    const scale = 10 ** exponent;
    return row.amount >= low * scale && row.amount <= high * scale;
  }).length;
}

async function run(): Promise<BenchFigure[]> {
  const dir = await mkdtemp(join(tmpdir(), 'search-bench-'));
  let child: ChildProcess | undefined;
  try {
    const sandboxPort = await freePort();
    const bff = await spawnBff(
      {
        PORT: String(await freePort()),
        SANDBOX_PORT: String(sandboxPort),
        SANDBOX_SEED_COUNT: String(SEED_COUNT),
        // Fixed data: the two years before 1 June 2026, whatever the day the run is.
        SANDBOX_SEED_END: '2026-06-01T00:00:00Z',
        APP_SECRET: randomBytes(32).toString('base64url'),
        DEMO_PASSWORD: PASSWORD,
        LOG_FORMAT: 'json',
        WEB_DIST_DIR: join(dir, 'no-spa'),
      },
      join(dir, 'bff.log'),
      (spawned) => {
        child = spawned;
      },
    );
    const session = await signInHeaders(bff.origin, PASSWORD);
    // Code paths warm, as on a server that has been up a while: another company searched, the list walked once.
    await searchStream(
      bff.origin,
      session,
      `/api/payments/search?q=${NOTHING}`,
      'acme-jp',
      AbortSignal.timeout(STEP_TIMEOUT_MS),
    );
    await directWalk(`http://127.0.0.1:${sandboxPort}`);
    const direct = await directWalk(`http://127.0.0.1:${sandboxPort}`);
    const rows = direct.rows;

    // Nothing remembered yet: the first search walks the list from its first page, one page after another.
    const cold = await search(bff.origin, session, NOTHING);
    if (cold.read !== rows.length || cold.found !== 0)
      throw new Error(`the cold search read ${cold.read} of ${rows.length} rows, found ${cold.found}`);

    const firsts: number[] = [];
    let exact = true;
    for (const position of POSITIONS) {
      const wanted = rows[position]?.id ?? '';
      const found = await search(bff.origin, session, wanted);
      firsts.push(found.firstMatchMs);
      if (found.ids.length !== 1 || found.ids[0] !== wanted) {
        exact = false;
        console.log(`  search for ${wanted}: found ${found.ids.join(', ') || 'nothing'}`);
      }
    }

    const warm: SearchRun[] = [];
    for (let i = 0; i < WARM_RUNS; i++) warm.push(await search(bff.origin, session, `${NOTHING}-${i}`));
    const amounts = await search(bff.origin, session, '500..510');
    const expectedAmounts = inAmountRange(rows, 500, 510);
    if (amounts.found !== expectedAmounts) {
      exact = false;
      console.log(`  search 500..510: found ${amounts.found}, the rows hold ${expectedAmounts}`);
    }
    const warmRate = median(warm.map(rate));
    console.log(
      `  ${rows.length} rows of ${COMPANY}; cold search ${(cold.ms / 1000).toFixed(2)} s, warm ${warm.map((w) => (w.ms / 1000).toFixed(2)).join(' / ')} s; first matches ${firsts.map((ms) => ms.toFixed(0)).join(' / ')} ms; 500..510: ${amounts.found} matches`,
    );
    return [
      { name: `rows of ${COMPANY}`, value: rows.length, unit: 'rows' },
      {
        name: 'whole walk, nothing remembered: rows read a second',
        value: rate(cold),
        unit: 'rows/s',
        ...atLeast(rate(cold), 30_000),
      },
      {
        name: 'whole walk, positions remembered: rows read a second (median)',
        value: warmRate,
        unit: 'rows/s',
      },
      {
        name: 'the same pages straight at the sandbox (the upstream share)',
        value: rows.length / (direct.ms / 1000),
        unit: 'rows/s',
      },
      {
        name: `first match among the newest 1,000 (positions ${POSITIONS.join(', ')}): median`,
        value: median(firsts),
        unit: 'ms',
        ...atMost(median(firsts), 1_000),
      },
      {
        name: '… slowest',
        value: Math.max(...firsts),
        unit: 'ms',
        ...atMost(Math.max(...firsts), 1_000),
      },
      {
        name: 'exact (1 = every search found what the rows hold)',
        value: exact ? 1 : 0,
        unit: '',
        ...atLeast(exact ? 1 : 0, 1),
      },
    ];
  } finally {
    child?.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
  }
}

export const suite: BenchSuite = {
  name: 'search: a view of ~40,000 rows searched through the BFF (sandbox mode, loopback)',
  run,
};
