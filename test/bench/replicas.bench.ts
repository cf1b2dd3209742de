/**
 * The shared state's cost: one BFF with the in-process store against one with Redis (a real redis-server on
 * loopback), both in front of the same sandbox process, loaded in alternating slices so both see the same
 * background load. Figures: `/api/payments` throughput at 64 connections (target: Redis ≥ 80 % of in-process),
 * and the p50 of `GET /api/session` at one connection, which is the session check alone (cookie, user, record).
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, startRedisServer } from '@payments/server/testing/redis-server';
import { Pool } from 'undici';
import { startSandboxProcess } from '../replicas/testing/sandbox-process.ts';
import { signInHeaders, spawnBff } from './bench-process.ts';
import { atLeast, type BenchFigure, type BenchSuite, median } from './report.ts';

const DEMO_PASSWORD = 'replicas-bench-password';
const SLICES = 6;
const SLICE_MS = 2_000;

/** `connections` loops of back-to-back GETs for `ms`: requests answered 200, and each latency in ms. */
async function load(
  pool: Pool,
  origin: string,
  path: string,
  headers: Record<string, string>,
  connections: number,
  ms: number,
) {
  const latencies: number[] = [];
  const end = performance.now() + ms;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < end) {
        const t0 = performance.now();
        const response = await pool.request({ origin, path, method: 'GET', headers });
        await response.body.text();
        if (response.statusCode !== 200) throw new Error(`${path}: ${response.statusCode}`);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  return latencies;
}

async function run(): Promise<BenchFigure[]> {
  const folder = await mkdtemp(join(tmpdir(), 'replicas-bench-'));
  const children: ChildProcess[] = [];
  const redis = await startRedisServer();
  const sandbox = await startSandboxProcess(await freePort(), 20_000);
  try {
    const companies = join(folder, 'companies.json');
    await sandbox.writeCompaniesFile(companies);
    const env = async (extra: Record<string, string>) => ({
      PAYMENTS_BASE_URL: sandbox.baseUrl,
      PAYMENTS_SECRET_ID: 'sandbox_id',
      PAYMENTS_SECRET_PASSWORD: 'sandbox_secret',
      PAYMENTS_COMPANIES_FILE: companies,
      APP_SECRET: randomBytes(32).toString('base64url'),
      DEMO_PASSWORD,
      LOG_FORMAT: 'json',
      PORT: String(await freePort()),
      WEB_DIST_DIR: join(folder, 'no-spa'),
      ...extra,
    });
    const keep = (child: ChildProcess) => children.push(child);
    const embedded = await spawnBff(await env({}), join(folder, 'embedded.log'), keep);
    const shared = await spawnBff(
      await env({ SHARED_STATE_URL: redis.url }),
      join(folder, 'redis.log'),
      keep,
    );
    const sides = await Promise.all(
      [embedded, shared].map(async (bff) => ({
        origin: bff.origin,
        headers: await signInHeaders(bff.origin, DEMO_PASSWORD),
        pool: new Pool(bff.origin, { connections: 64 }),
        pages: [] as number[],
        sessions: [] as number[],
        seconds: 0,
      })),
    );
    const path = '/api/payments?limit=50';
    for (const side of sides) await load(side.pool, side.origin, path, side.headers, 64, 1_000);
    for (let slice = 0; slice < SLICES; slice++) {
      for (const side of sides) {
        side.pages.push(...(await load(side.pool, side.origin, path, side.headers, 64, SLICE_MS)));
        side.seconds += SLICE_MS / 1000;
        side.sessions.push(...(await load(side.pool, side.origin, '/api/session', side.headers, 1, 300)));
      }
    }
    await Promise.all(sides.map((side) => side.pool.close()));
    const [inProcess, withRedis] = sides as [(typeof sides)[0], (typeof sides)[0]];
    const rps = (side: typeof inProcess) => side.pages.length / side.seconds;
    const ratio = (100 * rps(withRedis)) / rps(inProcess);
    return [
      { name: 'pages/s at 64 connections, in-process store', value: rps(inProcess), unit: 'req/s' },
      { name: 'pages/s at 64 connections, Redis store', value: rps(withRedis), unit: 'req/s' },
      { name: 'Redis throughput as a share of in-process', value: ratio, unit: '%', ...atLeast(ratio, 80) },
      {
        name: 'session check p50 (GET /api/session), in-process',
        value: median(inProcess.sessions),
        unit: 'ms',
      },
      { name: 'session check p50 (GET /api/session), Redis', value: median(withRedis.sessions), unit: 'ms' },
    ];
  } finally {
    for (const child of children) child.kill('SIGKILL');
    await sandbox.stop();
    await redis.stop();
    await rm(folder, { recursive: true, force: true });
  }
}

export const suite: BenchSuite = { name: 'replicas: the shared state in Redis against in-process', run };
