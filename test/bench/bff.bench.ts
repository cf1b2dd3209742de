/**
 * What passing through the BFF costs a user's list page, over loopback, with the upstream in a process of its own
 * as in production. This process generates load; children serve the sandbox (ROWS rows in one company), the BFF
 * and a bytes-only proxy. Every comparison is against the same list request sent straight to the sandbox with its
 * Basic credentials ("direct"), and all targets are read in this one run, so their ratios compare:
 * - 64 connections: through-BFF throughput at least 60 % of direct.
 * - 1 connection: the BFF's added p50 (p50 through it − p50 direct) at most 1.0 ms over the bytes-only proxy's.
 *   That proxy (node:http and an undici Agent; no session, no validation, the body streamed back unparsed) is the
 *   floor under any hop on this machine, so the BFF's own work is read against it rather than against zero.
 * - 20 ms of upstream latency (a second sandbox with the fault `latency_ms=20`): the BFF's p50 within 5 % of
 *   direct at 1 connection; 64 connections reported beside it.
 * Beside them, for reading them: undici's fetch (what the upstream client uses) against undici's request, straight
 * to the sandbox; at 64 connections a BFF asked for a compressed answer, as a browser asks; then a CSV export of
 * every row, twice, as CSV and as XLSX, for their speed and the BFF's memory.
 *
 * How, and why:
 * - A BFF child is `server/src/main.ts` run with the start script's flags and configured by environment as in
 *   production (PAYMENTS_BASE_URL, credentials, companies file, APP_SECRET). Only its user is sandbox mode's demo
 *   user, checked per request as a users file's would be. Its request log goes to a file, so logging is paid
 *   for. Sandbox and proxy children are this file (BFF_BENCH_ROLE): the sandbox's own entry cannot put all rows
 *   into one company.
 * - Separate processes rather than the sandbox embedded in the BFF: embedded, the BFF would also pay for the
 *   upstream's work on its own thread. On 2 cores the processes still share the CPU, which errs against the BFF.
 * - The senders of a comparison run in short alternating slices, so a burst elsewhere on this shared machine lands
 *   on all of them alike. The direct p50 is printed beside the added figures: it shows how fast the machine was.
 * - At one connection several BFF processes of one build run side by side: where the scheduler puts a process
 *   moves its added p50 by more than the BFF's own work, so one process is one draw. The target is read on the
 *   median process, and every process's figure is printed.
 * - Each server's CPU time per page (from /proc) is printed beside the 64-connection throughput: it moves far less
 *   with the machine's load than wall time does, and it says where the throughput goes.
 */

import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { Agent, type Dispatcher, fetch, Pool } from 'undici';
import { cpuMsOf, portsFrom, signInHeaders, spawnBff } from './bench-process.ts';
import { measureExport } from './export-measure.ts';
import { atLeast, atMost, type BenchFigure, type BenchSuite, median, percentile } from './report.ts';

const ROWS = 100_000;
const DURATION_MS = 4_000;
const WARMUP_MS = 1_000;
/** Upstream latency of the second sandbox, as `SANDBOX_FAULTS` spells it. */
const SLOW_UPSTREAM_FAULTS = 'latency_ms=20';
/** BFF processes measured side by side at one connection (see the notes above). */
const BFF_PROCESSES = 3;
/** Requests each sender gets before the one-connection figures: by count, since V8 optimises by how often code runs. */
const WARMUP_REQUESTS = 1_000;
/** Alternating slices per comparison (see `interleaved`). */
const SLICES = 8;
/** Where the BFF children listen (PORT must be a number): a range the project's other servers leave alone. */
const BFF_PORTS = { from: 3300, to: 3399 };
const DEMO_PASSWORD = 'bench-password-1234';
const LIST = '/api/payments?limit=100';
/** What a browser's fetch sends as Accept-Encoding. */
const BROWSER_ENCODINGS = 'gzip, deflate, br, zstd';

interface Ready {
  url: string;
  credentials?: { secretId: string; secretPassword: string };
}

async function serveSandbox(): Promise<Ready> {
  const { parseFaults, startSandbox } = await import('@payments/server/sandbox');
  const running = await startSandbox({
    seedCount: ROWS,
    seedWeights: { acme: 1 },
    faults: parseFaults(process.env.SANDBOX_FAULTS ?? ''),
    port: 0,
  });
  const tenant = running.sandbox.tenants[0];
  if (!tenant) throw new Error('no tenant');
  return {
    url: running.baseUrl,
    credentials: { secretId: tenant.secretId, secretPassword: tenant.secretPassword },
  };
}

/** The floor: forwards GET requests to the upstream with its credentials and streams the bytes back. */
async function serveBytesProxy(): Promise<Ready> {
  const upstream = new URL(process.env.BFF_BENCH_UPSTREAM ?? '');
  const authorization = process.env.BFF_BENCH_AUTHORIZATION ?? '';
  const agent = new Agent({ connections: 128, keepAliveTimeout: 30_000 });
  const server = createHttpServer(async (req, res) => {
    try {
      const answer = await agent.request({
        origin: upstream.origin,
        path: `${upstream.pathname}${req.url ?? '/'}`,
        method: 'GET',
        headers: { authorization, accept: 'application/json' },
      });
      const length = answer.headers['content-length'];
      res.writeHead(answer.statusCode, {
        'content-type': 'application/json',
        ...(typeof length === 'string' ? { 'content-length': length } : {}),
      });
      await pipeline(answer.body, res);
    } catch {
      res.destroy();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

const role = process.env.BFF_BENCH_ROLE;
if (role === 'sandbox' || role === 'bytes-proxy') {
  process.send?.(role === 'sandbox' ? await serveSandbox() : await serveBytesProxy());
  // Never outlive the benchmark.
  process.on('disconnect', () => process.exit(0));
}

interface Child {
  process: ChildProcess;
  pid: number;
}

/** Every child started, so that none outlives the benchmark, even one that crashes. */
const children: ChildProcess[] = [];

function benchChild(
  childRole: 'sandbox' | 'bytes-proxy',
  env: Record<string, string>,
): Promise<Child & { ready: Ready }> {
  const proc = fork(fileURLToPath(import.meta.url), [], {
    env: { ...process.env, ...env, BFF_BENCH_ROLE: childRole },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  children.push(proc);
  return new Promise((resolve, reject) => {
    proc.once('message', (ready) => resolve({ process: proc, pid: proc.pid ?? 0, ready: ready as Ready }));
    proc.once('exit', (code) => reject(new Error(`${childRole} exited with ${code}`)));
  });
}

const sandboxChild = (faults: string) => benchChild('sandbox', { SANDBOX_FAULTS: faults });

function bytesProxyChild(sandbox: Ready, authorization: string) {
  return benchChild('bytes-proxy', {
    BFF_BENCH_UPSTREAM: sandbox.url,
    BFF_BENCH_AUTHORIZATION: authorization,
  });
}

const freePort = portsFrom(BFF_PORTS);

/**
 * The BFF exactly as `pnpm start` runs it (server/src/main.ts with the start script's flags), pointed at a
 * sandbox child as a remote upstream. Its JSON request log is written to a file, not to a pipe read by this
 * process: that would wake the load generator for every log line, in the middle of the requests it times.
 */
async function bffChild(
  sandbox: Ready,
  companiesFile: string,
  logFile: string,
): Promise<Child & { origin: string }> {
  return spawnBff(
    {
      PAYMENTS_BASE_URL: sandbox.url,
      PAYMENTS_SECRET_ID: sandbox.credentials?.secretId ?? '',
      PAYMENTS_SECRET_PASSWORD: sandbox.credentials?.secretPassword ?? '',
      PAYMENTS_COMPANIES_FILE: companiesFile,
      APP_SECRET: randomBytes(32).toString('base64url'),
      DEMO_PASSWORD,
      PORT: String(await freePort()),
      WEB_DIST_DIR: join(tmpdir(), 'bff-bench-no-spa'),
    },
    logFile,
    (child) => children.push(child),
  );
}

type Send = () => Promise<void>;

interface Measured {
  latencies: number[];
  rps: number;
}

/** `concurrency` loops sending back-to-back requests for `ms`; latencies in ms. */
async function load(
  send: Send,
  concurrency: number,
  ms: number,
): Promise<{ latencies: number[]; seconds: number }> {
  const latencies: number[] = [];
  const started = performance.now();
  const end = started + ms;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        const t0 = performance.now();
        await send();
        latencies.push(performance.now() - t0);
      }
    }),
  );
  return { latencies, seconds: (performance.now() - started) / 1000 };
}

async function repeat(send: Send, times: number): Promise<void> {
  for (let i = 0; i < times; i++) await send();
}

/**
 * Loads each sender in turn, in short alternating slices, so that every sender sees the same background load
 * (this machine is shared: a burst elsewhere must not land on one side of a comparison only).
 */
async function interleaved(
  senders: readonly Send[],
  concurrency: number,
  totalMs: number,
): Promise<Measured[]> {
  const results = senders.map(() => ({ latencies: [] as number[], seconds: 0 }));
  for (let slice = 0; slice < SLICES; slice++) {
    for (const [i, send] of senders.entries()) {
      const r = await load(send, concurrency, totalMs / SLICES);
      const into = results[i] as { latencies: number[]; seconds: number };
      for (const latency of r.latencies) into.latencies.push(latency);
      into.seconds += r.seconds;
    }
  }
  return results.map((r) => ({ latencies: r.latencies, rps: r.latencies.length / r.seconds }));
}

function undiciSender(
  dispatcher: Dispatcher,
  origin: string,
  path: string,
  headers: Record<string, string>,
): Send {
  return async () => {
    const response = await dispatcher.request({ origin, path, method: 'GET', headers });
    await response.body.text();
    if (response.statusCode !== 200) throw new Error(`${path}: ${response.statusCode}`);
  };
}

/** As the upstream client asks: undici's fetch over a keep-alive Agent. */
function fetchSender(dispatcher: Agent, url: string, headers: Record<string, string>): Send {
  return async () => {
    const response = await fetch(url, { headers, dispatcher });
    await response.text();
    if (response.status !== 200) throw new Error(`${url}: ${response.status}`);
  };
}

/** Keep-alive pools of `connections` sockets, one per sender; closed together after a comparison. */
function poolSenders(connections: number) {
  const pools: Pool[] = [];
  return {
    sender(origin: string, path: string, headers: Record<string, string>): Send {
      const pool = new Pool(origin, { connections });
      pools.push(pool);
      return undiciSender(pool, origin, path, headers);
    },
    close: () => Promise.all(pools.map((pool) => pool.close())),
  };
}

/** Runs `work` and gives each process's CPU time meanwhile, in ms. */
async function withCpu<T>(
  pids: readonly number[],
  work: () => Promise<T>,
): Promise<{ result: T; cpuMs: number[] }> {
  const before = pids.map(cpuMsOf);
  const result = await work();
  return { result, cpuMs: pids.map((pid, i) => cpuMsOf(pid) - (before[i] ?? 0)) };
}

/** The sandbox's companies as the BFF's PAYMENTS_COMPANIES_FILE, and its credentials as a Basic header. */
async function upstreamSetup(sandbox: Ready, companiesFile: string) {
  const { secretId, secretPassword } = sandbox.credentials ?? { secretId: '', secretPassword: '' };
  const basic = { authorization: `Basic ${Buffer.from(`${secretId}:${secretPassword}`).toString('base64')}` };
  const url = new URL(sandbox.url);
  const companies = await fetch(new URL('/_sandbox/companies', url), { headers: basic });
  await writeFile(companiesFile, await companies.text());
  return { basic, origin: url.origin, listPath: `${url.pathname}/payments/?limit=100` };
}

const p50 = (m: Measured) => median(m.latencies);
const p99 = (m: Measured) => percentile(m.latencies, 99);

async function run(): Promise<BenchFigure[]> {
  const figures: BenchFigure[] = [];
  const dir = await mkdtemp(join(tmpdir(), 'bff-bench-'));
  const killChildren = () => {
    for (const child of children) child.kill();
  };
  process.once('exit', killChildren);
  try {
    const [sandbox, slowSandbox] = await Promise.all([sandboxChild(''), sandboxChild(SLOW_UPSTREAM_FAULTS)]);
    const fast = await upstreamSetup(sandbox.ready, join(dir, 'companies.json'));
    const slow = await upstreamSetup(slowSandbox.ready, join(dir, 'companies-slow.json'));
    const [proxy, slowProxy, slowBff, ...bffs] = await Promise.all([
      bytesProxyChild(sandbox.ready, fast.basic.authorization),
      bytesProxyChild(slowSandbox.ready, slow.basic.authorization),
      bffChild(slowSandbox.ready, join(dir, 'companies-slow.json'), join(dir, 'bff-slow.log')),
      ...Array.from({ length: BFF_PROCESSES }, (_, i) =>
        bffChild(sandbox.ready, join(dir, 'companies.json'), join(dir, `bff-${i + 1}.log`)),
      ),
    ]);
    const bff = bffs[0];
    if (!bff) throw new Error('no BFF process');
    const sessions = await Promise.all(bffs.map((b) => signInHeaders(b.origin, DEMO_PASSWORD)));
    const slowSession = await signInHeaders(slowBff.origin, DEMO_PASSWORD);

    // The client the upstream client uses (undici's fetch) beside undici's lower-level request, to the sandbox.
    const agent = new Agent({ connections: 128, keepAliveTimeout: 30_000 });
    for (const concurrency of [1, 64]) {
      const viaRequest = undiciSender(agent, fast.origin, fast.listPath, fast.basic);
      const viaFetch = fetchSender(agent, `${fast.origin}${fast.listPath}`, fast.basic);
      await load(viaRequest, concurrency, WARMUP_MS / 2);
      await load(viaFetch, concurrency, WARMUP_MS / 2);
      const [r, f] = (await interleaved([viaRequest, viaFetch], concurrency, DURATION_MS / 2)) as [
        Measured,
        Measured,
      ];
      const label = `client to sandbox, ${concurrency} conn:`;
      figures.push(
        { name: `${label} undici request throughput`, value: r.rps, unit: 'req/s' },
        { name: `${label} undici fetch throughput`, value: f.rps, unit: 'req/s' },
        { name: `${label} undici request p50`, value: p50(r), unit: 'ms' },
        { name: `${label} undici fetch p50`, value: p50(f), unit: 'ms' },
      );
    }
    await agent.close();

    // One connection: direct, every BFF process and the bytes-only proxy, in the same slices.
    {
      const pools = poolSenders(1);
      const senders = [
        pools.sender(fast.origin, fast.listPath, fast.basic),
        ...bffs.map((b, i) => pools.sender(b.origin, LIST, sessions[i] ?? {})),
        pools.sender(proxy.ready.url, '/payments/?limit=100', {}),
      ];
      await Promise.all(senders.map((send) => repeat(send, WARMUP_REQUESTS)));
      const [d, ...rest] = await interleaved(senders, 1, DURATION_MS);
      await pools.close();
      const floor = rest.pop();
      if (!d || !floor) throw new Error('a sender gave no result');
      const added = rest.map((b) => p50(b) - p50(d));
      const byAdded = rest.map((_, i) => i).sort((x, y) => (added[x] ?? 0) - (added[y] ?? 0));
      const middle = byAdded[(byAdded.length - 1) >> 1] ?? 0;
      const b = rest[middle] as Measured;
      const bffAdded = added[middle] ?? Number.NaN;
      const proxyAdded = p50(floor) - p50(d);
      const label = 'list limit=100, 1 conn:';
      figures.push(
        { name: `${label} direct p50 (the floor under the added p50s)`, value: p50(d), unit: 'ms' },
        { name: `${label} direct throughput`, value: d.rps, unit: 'req/s' },
        { name: `${label} bytes-only proxy added p50`, value: proxyAdded, unit: 'ms' },
        ...added.map((value, i) => ({ name: `${label} BFF added p50, process ${i + 1}`, value, unit: 'ms' })),
        { name: `${label} BFF added p50 (median process)`, value: bffAdded, unit: 'ms' },
        {
          name: `${label} BFF added p50 − bytes-only proxy added p50 (median process)`,
          value: bffAdded - proxyAdded,
          unit: 'ms',
          ...atMost(bffAdded - proxyAdded, 1),
        },
        { name: `${label} BFF p50 (median process)`, value: p50(b), unit: 'ms' },
        { name: `${label} BFF added p99 (median process)`, value: p99(b) - p99(d), unit: 'ms' },
        { name: `${label} BFF/direct throughput (median process)`, value: (b.rps / d.rps) * 100, unit: '%' },
      );
    }

    // 64 connections: throughput, direct against the first BFF process and the bytes-only proxy. The targets take
    // the answer uncompressed, as direct gets it; a browser asks for compression, so the second BFF process is
    // also loaded as one asks (its own process, so that each CPU figure is one sender's).
    {
      const pools = poolSenders(64);
      const browser = bffs[1] ?? bff;
      const senders = [
        pools.sender(fast.origin, fast.listPath, fast.basic),
        pools.sender(bff.origin, LIST, sessions[0] ?? {}),
        pools.sender(proxy.ready.url, '/payments/?limit=100', {}),
        pools.sender(browser.origin, LIST, { ...(sessions[1] ?? {}), 'accept-encoding': BROWSER_ENCODINGS }),
      ];
      for (const send of senders) await load(send, 64, WARMUP_MS);
      const { result, cpuMs } = await withCpu([sandbox.pid, bff.pid, proxy.pid, browser.pid], () =>
        interleaved(senders, 64, DURATION_MS),
      );
      await pools.close();
      const [d, b, p, z] = result as [Measured, Measured, Measured, Measured];
      const [sandboxCpu = 0, bffCpu = 0, proxyCpu = 0, browserCpu = 0] = cpuMs;
      const pages = (m: Measured) => m.latencies.length;
      const ratio = (b.rps / d.rps) * 100;
      const label = 'list limit=100, 64 conn:';
      figures.push(
        { name: `${label} direct throughput`, value: d.rps, unit: 'req/s' },
        { name: `${label} BFF throughput`, value: b.rps, unit: 'req/s' },
        { name: `${label} BFF/direct throughput`, value: ratio, unit: '%', ...atLeast(ratio, 60) },
        { name: `${label} bytes-only proxy/direct throughput`, value: (p.rps / d.rps) * 100, unit: '%' },
        {
          name: `${label} BFF/direct throughput, compressed as a browser asks`,
          value: (z.rps / d.rps) * 100,
          unit: '%',
        },
        { name: `${label} direct p50`, value: p50(d), unit: 'ms' },
        { name: `${label} BFF added p50`, value: p50(b) - p50(d), unit: 'ms' },
        { name: `${label} BFF added p99`, value: p99(b) - p99(d), unit: 'ms' },
        {
          name: `${label} sandbox CPU per page`,
          value: sandboxCpu / (pages(d) + pages(b) + pages(p) + pages(z)),
          unit: 'ms',
        },
        { name: `${label} BFF CPU per page`, value: bffCpu / pages(b), unit: 'ms' },
        { name: `${label} bytes-only proxy CPU per page`, value: proxyCpu / pages(p), unit: 'ms' },
        {
          name: `${label} BFF CPU per page, compressed as a browser asks`,
          value: browserCpu / pages(z),
          unit: 'ms',
        },
      );
    }

    // 20 ms of upstream latency: 64 connections first, which also warms the BFF, then one connection.
    {
      const wide = poolSenders(64);
      const direct = wide.sender(slow.origin, slow.listPath, slow.basic);
      const through = wide.sender(slowBff.origin, LIST, slowSession);
      for (const send of [direct, through]) await load(send, 64, WARMUP_MS);
      const [d, b] = (await interleaved([direct, through], 64, DURATION_MS)) as [Measured, Measured];
      await wide.close();
      const over = (p50(b) / p50(d) - 1) * 100;
      const label = `upstream +20 ms, list limit=100, 64 conn:`;
      figures.push(
        { name: `${label} direct p50`, value: p50(d), unit: 'ms' },
        { name: `${label} BFF p50`, value: p50(b), unit: 'ms' },
        { name: `${label} BFF p50 over direct`, value: over, unit: '%' },
        { name: `${label} BFF/direct throughput`, value: (b.rps / d.rps) * 100, unit: '%' },
      );
    }
    {
      const narrow = poolSenders(1);
      const senders = [
        narrow.sender(slow.origin, slow.listPath, slow.basic),
        narrow.sender(slowBff.origin, LIST, slowSession),
        narrow.sender(slowProxy.ready.url, '/payments/?limit=100', {}),
      ];
      for (const send of senders) await load(send, 1, WARMUP_MS / 2);
      const [d, b, p] = (await interleaved(senders, 1, DURATION_MS)) as [Measured, Measured, Measured];
      await narrow.close();
      const over = (p50(b) / p50(d) - 1) * 100;
      const label = `upstream +20 ms, list limit=100, 1 conn:`;
      figures.push(
        { name: `${label} direct p50`, value: p50(d), unit: 'ms' },
        { name: `${label} BFF p50`, value: p50(b), unit: 'ms' },
        { name: `${label} BFF p50 over direct`, value: over, unit: '%', ...atMost(over, 5) },
        { name: `${label} bytes-only proxy p50 over direct`, value: (p50(p) / p50(d) - 1) * 100, unit: '%' },
      );
    }

    // Export of every row, twice per format, measured at the client; memory sampled from the BFF child's /proc
    // status. The first export of each starts from whatever heap the work before left and may grow it once to the
    // working size a stream of parsed pages needs; the second starts from that size, so its growth is what the
    // export holds. The XLSX's figures are read beside the CSV's, from the same BFF in the same run.
    const target = {
      origin: bff.origin,
      session: sessions[0] ?? {},
      pid: bff.pid,
      logFile: join(dir, 'bff-1.log'),
    };
    for (const [format, rowsPerSecond, growthMb] of [
      ['csv', 25_000, 50],
      ['xlsx', 15_000, 60],
    ] as const) {
      const first = await measureExport(target, format);
      const second = await measureExport(target, format);
      const speed = second.rows / second.seconds;
      figures.push(
        {
          name: `export ${format}: rows written`,
          value: second.rows,
          unit: 'rows',
          ...atLeast(second.rows, ROWS),
        },
        {
          name: `export ${format}: rows per second`,
          value: speed,
          unit: 'rows/s',
          ...atLeast(speed, rowsPerSecond),
        },
        { name: `export ${format}: file size`, value: second.bytes / 1e6, unit: 'MB' },
        {
          name: `export ${format}: BFF RSS growth, first export (from the heap the work before left)`,
          value: first.growth,
          unit: 'MB',
        },
        {
          name: `export ${format}: BFF RSS growth, second export (peak - before)`,
          value: second.growth,
          unit: 'MB',
          ...atMost(second.growth, growthMb),
        },
      );
    }
  } finally {
    killChildren();
    process.off('exit', killChildren);
    await rm(dir, { recursive: true, force: true });
  }
  return figures;
}

export const suite: BenchSuite = {
  name: 'bff: list through the BFF vs direct and a bytes-only proxy (1 and 64 conn, +20 ms upstream), CSV and XLSX export',
  run,
};
