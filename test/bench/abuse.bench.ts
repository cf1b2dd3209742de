/**
 * `pnpm bench abuse`: what each attack of the abuse suite costs another user, in time. The abuse tests prove by
 * counting what holds (places, handles, hashes, bytes, answers); the latency of another user under each attack
 * is measured here, where a slow or busy machine makes a figure worse, not a build red. Each attack runs against
 * a BFF of its own (`node server/src/main.ts`, as `pnpm start` runs it); attackers and the user's pages each run
 * in a process of their own. Figures: the other user's page p50/p95/p99 idle and under the attack, each beside
 * its target (the issue's, or the bound the abuse tests held before they counted).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { median } from '@payments/server/testing/median';
import { Agent } from 'undici';
import {
  type BffProcess,
  DEMO_PASSWORD,
  type SignInAnswer,
  sessionCookie,
  signIn,
  startBff,
  writeManyUsers,
} from '../abuse/testing/bff-process.ts';
import { startCountingUpstream } from '../abuse/testing/counting-upstream.ts';
import { attack } from '../abuse/testing/idle-attack.ts';
import { type LatencySummary, samplePages, summarize } from '../abuse/testing/latency.ts';
import { startFlood } from '../abuse/testing/sign-in-flood.ts';
import { slowDownload } from '../abuse/testing/slow-download.ts';
import { atMost, type BenchFigure, type BenchSuite } from './report.ts';

const PASSWORD = 'abuse-bench-password-1';
/** A page slower than this counts as failed. */
const PAGE_TIMEOUT_MS = 10_000;

/** The figures of another user's pages: p50, p95, p99 idle and under the attack, the attack's p99 against `limit`. */
function pageFigures(
  attack: string,
  idle: LatencySummary,
  during: LatencySummary,
  limit: number,
  how: string,
) {
  const figures: BenchFigure[] = [
    {
      name: `${attack}: another user's page p50 idle / under attack`,
      value: during.p50,
      unit: `ms (idle ${idle.p50.toFixed(1)})`,
    },
    {
      name: `${attack}: another user's page p95 idle / under attack`,
      value: during.p95,
      unit: `ms (idle ${idle.p95.toFixed(1)})`,
    },
    {
      name: `${attack}: another user's page p99 under attack`,
      value: during.p99,
      unit: `ms (idle ${idle.p99.toFixed(1)})`,
      ...atMost(Number(during.p99.toFixed(1)), Number(limit.toFixed(1))),
    },
    {
      name: `${attack}: another user's pages answered`,
      value: during.successRate * 100,
      unit: '%',
      target: '≥ 99',
      ok: during.successRate >= 0.99,
    },
  ];
  const p99 = figures[2];
  if (p99) p99.target = `${p99.target} (${how})`;
  return figures;
}

/** Another user's list page: `count` of them idle (after a warm-up), then a sampler that waits for the attack. */
async function pagesOf(origin: string, cookie: string, path = '/api/payments?limit=50') {
  const common = { url: `${origin}${path}`, cookie, timeoutMs: PAGE_TIMEOUT_MS };
  const idleSampler = samplePages({ ...common, warmup: 50, count: 200, intervalMs: 10 });
  const idle = summarize(await idleSampler.samples);
  return {
    idle,
    /** A sampler, warmed up, whose `count` pages every `intervalMs` start at `go()`. */
    during: async (count: number, intervalMs: number) => {
      const sampler = samplePages({ ...common, warmup: 10, count, intervalMs, waitForGo: true });
      await sampler.ready;
      return sampler;
    },
  };
}

const threeTimesIdle = (idle: LatencySummary) => ({ limit: 3 * idle.p99, how: '3 x idle p99' });

/** Connections held idle: half-open ones (slowloris: no byte sent), then kept-alive ones after one request. */
async function idleConnections(): Promise<BenchFigure[]> {
  const figures: BenchFigure[] = [];
  for (const [name, attempts, request] of [
    ['keep-alive hoard (19,600 connections)', 19_600, true],
    ['slowloris (25,000 half-open connections)', 25_000, false],
  ] as const) {
    const bff = await startBff();
    try {
      const cookie = await sessionCookie(bff.origin, 'demo', DEMO_PASSWORD);
      const pages = await pagesOf(bff.origin, cookie);
      const during = await pages.during(200, 40);
      const attackers = attack(bff.port, attempts, { request, earlyMs: request ? 5_000 : 9_000 });
      try {
        await attackers.filled;
        during.go();
        figures.push(
          ...pageFigures(
            name,
            pages.idle,
            summarize(await during.samples),
            1_000,
            "the abuse test's old bound",
          ),
        );
      } finally {
        attackers.stop();
        await attackers.totals.catch(() => undefined);
        during.kill();
      }
    } finally {
      await bff.stop();
    }
  }
  return figures;
}

/** A user with the right password signing in again and again with her own device cookies, from 200 addresses. */
async function insiderLane(): Promise<BenchFigure[]> {
  const folder = await mkdtemp(join(tmpdir(), 'bench-abuse-lane-'));
  const users = join(folder, 'users.json');
  await writeManyUsers(users, ['ana', 'pat'], PASSWORD);
  const bff = await startBff({ AUTH_USERS_FILE: users, SANDBOX_SEED_COUNT: '5000' });
  try {
    const devices: string[] = [];
    for (let i = 0; i < 10; i++) {
      const agent = new Agent({ localAddress: `127.44.0.${i + 1}` });
      devices.push((await signIn(bff.origin, 'ana', PASSWORD, agent)).deviceCookie);
      await agent.close();
    }
    const cookie = await sessionCookie(bff.origin, 'pat', PASSWORD);
    const pages = await pagesOf(bff.origin, cookie);
    const during = await pages.during(200, 40);
    const flood = startFlood({
      port: bff.port,
      concurrency: 32,
      durationMs: 12_000,
      addresses: 200,
      prefix: 46,
      username: 'ana',
      password: PASSWORD,
      cookies: devices,
    });
    await sleep(1_000);
    during.go();
    const samples = await during.samples;
    await flood.totals;
    const { limit, how } = threeTimesIdle(pages.idle);
    return pageFigures('insider lane', pages.idle, summarize(samples), limit, how);
  } finally {
    await bff.stop();
    await rm(folder, { recursive: true, force: true });
  }
}

/** One user's 32 walks (summaries and exports) at once. */
async function walkFlood(): Promise<BenchFigure[]> {
  const upstream = await startCountingUpstream({ seedCount: 20_000 });
  const folder = await mkdtemp(join(tmpdir(), 'bench-abuse-walks-'));
  await writeFile(join(folder, 'companies.json'), JSON.stringify(upstream.companies));
  await writeManyUsers(join(folder, 'users.json'), ['mallory', 'victim'], PASSWORD, [], 1 << 12);
  const bff = await startBff({
    PAYMENTS_BASE_URL: upstream.baseUrl,
    PAYMENTS_SECRET_ID: upstream.credentials.secretId,
    PAYMENTS_SECRET_PASSWORD: upstream.credentials.secretPassword,
    PAYMENTS_COMPANIES_FILE: join(folder, 'companies.json'),
    AUTH_USERS_FILE: join(folder, 'users.json'),
    UPSTREAM_PAGE_REUSE_MS: '0',
  });
  const browser = new Agent({ connections: 64 });
  try {
    const mallory = await sessionCookie(bff.origin, 'mallory', PASSWORD);
    const victim = await sessionCookie(bff.origin, 'victim', PASSWORD);
    const pages = await pagesOf(bff.origin, victim, '/api/payments?limit=50&status=COMPLETED');
    const during = await pages.during(200, 10);
    const walks = Array.from({ length: 32 }, async (_, i) => {
      const path =
        i % 2
          ? '/api/payments/export.csv?status=FAILED'
          : `/api/payments/summary?date_to=2026-0${1 + (i % 5)}-01T00:00:00`;
      const response = await browser.request({
        origin: bff.origin,
        path,
        method: 'GET',
        headers: { cookie: mallory, 'x-csrf': '1' },
      });
      await response.body.dump();
    });
    during.go();
    const samples = await during.samples;
    await Promise.all(walks);
    const idle = pages.idle;
    return pageFigures(
      'walk flood (32 walks)',
      idle,
      summarize(samples),
      Math.max(3 * idle.p99, idle.p99 + 100),
      'max(3 x idle p99, idle p99 + 100 ms)',
    );
  } finally {
    await browser.close();
    await bff.stop();
    await upstream.close();
    await rm(folder, { recursive: true, force: true });
  }
}

/** One user's 200 downloads, each read at 1 KB/s. */
async function slowExports(): Promise<BenchFigure[]> {
  const upstream = await startCountingUpstream({ seedCount: 60_000, seedWeights: { acme: 1 } });
  const folder = await mkdtemp(join(tmpdir(), 'bench-abuse-exports-'));
  await writeFile(join(folder, 'companies.json'), JSON.stringify(upstream.companies));
  await writeManyUsers(join(folder, 'users.json'), ['mallory', 'victim'], PASSWORD, [], 1 << 12);
  const bff = await startBff({
    PAYMENTS_BASE_URL: upstream.baseUrl,
    PAYMENTS_SECRET_ID: upstream.credentials.secretId,
    PAYMENTS_SECRET_PASSWORD: upstream.credentials.secretPassword,
    PAYMENTS_COMPANIES_FILE: join(folder, 'companies.json'),
    AUTH_USERS_FILE: join(folder, 'users.json'),
  });
  const downloads: ReturnType<typeof slowDownload>[] = [];
  try {
    const mallory = await sessionCookie(bff.origin, 'mallory', PASSWORD);
    const victim = await sessionCookie(bff.origin, 'victim', PASSWORD);
    const pages = await pagesOf(bff.origin, victim);
    const during = await pages.during(200, 65);
    for (let i = 0; i < 200; i++)
      downloads.push(
        slowDownload({
          port: bff.port,
          path: '/api/payments/export.csv',
          headers: { cookie: mallory, 'x-csrf': '1' },
          bytesPerSecond: 1024,
        }),
      );
    during.go();
    const samples = await during.samples;
    const { limit, how } = threeTimesIdle(pages.idle);
    return pageFigures('slow exports (200 at 1 KB/s)', pages.idle, summarize(samples), limit, how);
  } finally {
    for (const download of downloads) download.close();
    await bff.stop();
    await upstream.close();
    await rm(folder, { recursive: true, force: true });
  }
}

/** A real user's sign-in on a new device (no device cookie) from `localAddress`: tries until 200 (at most 3). */
async function newDeviceSignIn(origin: string, username: string, localAddress: string) {
  const agent = new Agent({ localAddress });
  const started = performance.now();
  const tries: SignInAnswer[] = [];
  try {
    for (let i = 0; i < 3; i++) {
      const answer = await signIn(origin, username, PASSWORD, agent);
      tries.push(answer);
      if (answer.status === 200) break;
      await sleep(Math.min(3_000, (answer.retryAfter ?? 1) * 1000));
    }
  } finally {
    await agent.close();
  }
  return { ms: performance.now() - started, tries };
}

/** 32 sign-ins for made-up names at all times, from 1,000 addresses. */
async function madeUpNameFlood(): Promise<BenchFigure[]> {
  const folder = await mkdtemp(join(tmpdir(), 'bench-abuse-flood-'));
  const users = join(folder, 'users.json');
  await writeManyUsers(users, ['ana', 'bea', 'pat'], PASSWORD);
  const bff = await startBff({ AUTH_USERS_FILE: users, SANDBOX_SEED_COUNT: '5000' });
  try {
    const cookie = await sessionCookie(bff.origin, 'pat', PASSWORD);
    const pages = await pagesOf(bff.origin, cookie);
    const idleSignIn = await newDeviceSignIn(bff.origin, 'ana', '127.42.0.1');
    const during = await pages.during(200, 50);
    const flood = startFlood({
      port: bff.port,
      concurrency: 32,
      durationMs: 12_000,
      addresses: 1_000,
      prefix: 41,
    });
    await sleep(2_000);
    during.go();
    const floodSignIn = await newDeviceSignIn(bff.origin, 'bea', '127.42.0.2');
    const samples = await during.samples;
    await flood.totals;
    const { limit, how } = threeTimesIdle(pages.idle);
    return [
      {
        name: "made-up-name flood: a new device's first sign-in (idle / flood)",
        value: floodSignIn.ms,
        unit: `ms (idle ${idleSignIn.ms.toFixed(0)}; ${floodSignIn.tries.length} tries, ${floodSignIn.tries.map((t) => t.status).join(' ')})`,
        ...atMost(Math.round(floodSignIn.ms), Math.round(2 * idleSignIn.ms)),
      },
      ...pageFigures('made-up-name flood', pages.idle, summarize(samples), limit, how),
    ];
  } finally {
    await bff.stop();
    await rm(folder, { recursive: true, force: true });
  }
}

/** Wrong sign-ins for unknown names and for known ones, interleaved, each from an address of its own. */
async function signInTiming(): Promise<BenchFigure[]> {
  const tries = 200;
  const folder = await mkdtemp(join(tmpdir(), 'bench-abuse-timing-'));
  const users = join(folder, 'users.json');
  const known = Array.from({ length: tries / 4 }, (_, i) => `known-${i}`);
  await writeManyUsers(users, known, PASSWORD, [], 2 ** 13);
  const bff: BffProcess = await startBff({ AUTH_USERS_FILE: users, SANDBOX_SEED_COUNT: '1000' });
  const timed = async (username: string, prefix: number, n: number) => {
    const agent = new Agent({ localAddress: `127.${prefix}.${1 + Math.floor(n / 250)}.${1 + (n % 250)}` });
    try {
      const started = performance.now();
      await signIn(bff.origin, username, 'a wrong password', agent);
      return performance.now() - started;
    } finally {
      await agent.close();
    }
  };
  try {
    const unknown: number[] = [];
    const knownMs: number[] = [];
    for (let i = 0; i < tries; i++) {
      // Alternating which goes first, so that the machine's drift falls on both alike.
      if (i % 2 === 0) {
        unknown.push(await timed(`nobody-${i}`, 60, i));
        knownMs.push(await timed(known[i % known.length] ?? '', 61, i));
      } else {
        knownMs.push(await timed(known[i % known.length] ?? '', 61, i));
        unknown.push(await timed(`nobody-${i}`, 60, i));
      }
    }
    const ratio = median(unknown) / median(knownMs);
    return [
      {
        name: 'sign-in timing: unknown name / known name with a wrong password (medians)',
        value: ratio,
        unit: `x (${median(unknown).toFixed(1)} / ${median(knownMs).toFixed(1)} ms, ${tries} each)`,
        target: '0.95 to 1.05',
        ok: Math.abs(ratio - 1) <= 0.05,
      },
    ];
  } finally {
    await bff.stop();
    await rm(folder, { recursive: true, force: true });
  }
}

export const suite: BenchSuite = {
  name: "abuse: another user's time under each attack",
  async run() {
    const figures: BenchFigure[] = [];
    for (const scenario of [
      idleConnections,
      insiderLane,
      walkFlood,
      slowExports,
      madeUpNameFlood,
      signInTiming,
    ])
      figures.push(...(await scenario()));
    return figures;
  },
};
