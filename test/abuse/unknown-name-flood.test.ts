import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BffProcess,
  codeOf,
  type SignInAnswer,
  sessionCookie,
  signIn,
  startBff,
  writeManyUsers,
} from './testing/bff-process.ts';
import {
  describeLatency,
  type LatencySummary,
  paced,
  samplePages,
  signedInGet,
  slowest,
  summarize,
} from './testing/latency.ts';
import { type FloodTotals, startFlood } from './testing/sign-in-flood.ts';

const FLOOD_MS = 10_000;
const CONCURRENCY = 32;
/** Source addresses the flood rotates through (127.41.x.y): many, so the per-address rules do not stop it. */
const ADDRESSES = 1_000;
/** A real user waits what Retry-After says, but no longer than this between tries. */
const RETRY_CAP_MS = 3_000;
const PASSWORD = 'abuse-suite-user-password';

/**
 * A real user on a new device (no device cookie): up to 3 submissions of the sign-in form, the code typed when
 * asked for.
 */
async function newDeviceSignIn(origin: string, username: string, localAddress: string, secret?: string) {
  const browser = new Agent({ localAddress });
  const tries: SignInAnswer[] = [];
  let code: string | undefined;
  try {
    for (let i = 0; i < 3; i++) {
      const answer = await signIn(origin, username, PASSWORD, browser, undefined, code);
      tries.push(answer);
      if (answer.status === 200) break;
      if (answer.code === 'totp_required' && secret) code = codeOf(secret);
      else await sleep(Math.min(RETRY_CAP_MS, (answer.retryAfter ?? 1) * 1000));
    }
  } finally {
    await browser.close();
  }
  return tries;
}

const describeTries = (tries: SignInAnswer[]) =>
  tries
    .map(
      (t) =>
        `${t.status}${t.code ? ` ${t.code}` : ''}${t.retryAfter ? ` (Retry-After ${t.retryAfter} s)` : ''}`,
    )
    .join(', ');

describe('unknown-name flood: 32 sign-ins for made-up names at all times, from 1,000 addresses, for 10 s', () => {
  let folder: string;
  let bff: BffProcess | undefined;
  let stopFlood: (() => void) | undefined;
  let idle: LatencySummary;
  let flooded: LatencySummary;
  let totals: FloodTotals;
  let hashingShare: number;
  let ana: SignInAnswer[];
  let tina: SignInAnswer[];
  let log: Record<string, unknown>[];
  afterAll(async () => {
    stopFlood?.();
    await bff?.stop();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'abuse-flood-'));
    const users = join(folder, 'users.json');
    const secrets = await writeManyUsers(users, ['ana', 'tina', 'pat'], PASSWORD, ['tina']);
    bff = await startBff({ AUTH_USERS_FILE: users, SANDBOX_SEED_COUNT: '5000' });
    const browser = new Agent({
      connections: 2,
      keepAliveTimeout: 120_000,
      keepAliveMaxTimeout: 120_000,
      localAddress: '127.42.0.9',
    });
    const cookie = await sessionCookie(bff.origin, 'pat', PASSWORD, browser);
    const page = signedInGet(`${bff.origin}/api/payments?limit=50`, cookie, browser);
    await paced(50, 10, page);
    idle = summarize(await paced(200, 10, page));
    // Another user's pages during the flood, from a process of its own (a guard of 30 s a page, no latency bound).
    const pages = samplePages({
      url: `${bff.origin}/api/payments?limit=50`,
      cookie,
      warmup: 10,
      count: 200,
      intervalMs: (FLOOD_MS - 1_000) / 200,
      timeoutMs: 30_000,
      localAddress: '127.42.0.9',
      waitForGo: true,
    });
    await pages.ready;

    const started = performance.now();
    const cpuBefore = bff.cpuTimes();
    const attack = startFlood({
      port: bff.port,
      concurrency: CONCURRENCY,
      durationMs: FLOOD_MS,
      addresses: ADDRESSES,
      prefix: 41,
    });
    stopFlood = attack.kill;
    pages.go();
    // Real users at other addresses, on devices they never signed in from, once the flood is under way.
    await sleep(2_000);
    [ana, tina] = await Promise.all([
      newDeviceSignIn(bff.origin, 'ana', '127.42.0.1'),
      newDeviceSignIn(bff.origin, 'tina', '127.42.0.2', secrets.get('tina')),
    ]);
    const samples = await pages.samples;
    totals = await attack.totals;
    const cpuAfter = bff.cpuTimes();
    const seconds = (performance.now() - started) / 1000;
    hashingShare = (cpuAfter.otherThreadsMs - cpuBefore.otherThreadsMs) / 10 / seconds;
    const loopShare = (cpuAfter.mainMs - cpuBefore.mainMs) / 10 / seconds;
    await browser.close();
    flooded = summarize(samples);
    // Stopped, it writes the refused sign-ins it counted.
    await bff.stop();
    log = bff.logLines();

    console.log(
      [
        `unknown-name flood: ${totals.attempts} attempts in ${FLOOD_MS / 1000} s (${totals.perSecond}/s), answers ${JSON.stringify(totals.outcomes)}; the flooder's own CPU ${totals.cpuMs} ms`,
        `  BFF CPU during the flood: event loop ${loopShare.toFixed(0)} % of a core, other threads (scrypt) ${hashingShare.toFixed(0)} %`,
        `  pages idle:  ${describeLatency(idle)}`,
        `  pages flood: ${describeLatency(flooded)}; slowest at ${slowest(samples, performance.timeOrigin + started)}`,
        `  ana, new device, no code: ${describeTries(ana)}`,
        `  tina, new device, with a code: ${describeTries(tina)}`,
        `  log: ${log.filter((l) => l.msg === 'sign_in_refused').length} sign_in_refused lines counting ${log.filter((l) => l.msg === 'sign_in_refused').reduce((sum, l) => sum + Number(l.count), 0)} for ${totals.attempts} refusals, ${log.filter((l) => l.msg === 'request' && l.path === '/api/session' && Number(l.status) >= 400).length} request lines of refused sign-ins`,
      ].join('\n'),
    );
  }, 150_000);

  it('answers made-up names as wrong passwords, without hashing: scrypt threads under 15 % of a core, no busy', () => {
    // Counted over the attempts the flood made, however many this machine's speed allowed: each of its 32 loops
    // made at least one, every one was answered, and every answer was a 401 as for a wrong password.
    expect(totals.attempts).toBeGreaterThanOrEqual(CONCURRENCY);
    const answered = Object.values(totals.outcomes).reduce((sum, n) => sum + n, 0);
    expect(answered).toBe(totals.attempts);
    const asWrongPassword =
      (totals.outcomes['401 invalid_credentials'] ?? 0) + (totals.outcomes['401 totp_required'] ?? 0);
    expect(asWrongPassword, JSON.stringify(totals.outcomes)).toBe(totals.attempts);
    // Before: every attempt hashed, and the scrypt threads took a whole core.
    expect(hashingShare).toBeLessThan(15);
  });

  // Their latency under the flood is `pnpm bench abuse`'s (target: p99 ≤ 3 x idle).
  it('pages of another user all answer during the flood', () => {
    expect(flooded.successRate).toBe(1);
  });

  it('a real user on a new device signs in within 3 tries, with a code or without', () => {
    expect(ana.length).toBeLessThanOrEqual(3);
    expect(ana.at(-1)?.status).toBe(200);
    expect(tina.length).toBeLessThanOrEqual(3);
    expect(tina.at(-1)?.status).toBe(200);
  });

  it('logs the refused sign-ins as one line per address and minute, not one per attempt', () => {
    const refusedLines = log.filter((line) => line.msg === 'sign_in_refused');
    const counted = refusedLines.reduce((sum, line) => sum + Number(line.count), 0);
    // Every refusal is counted, on at most one line per address for each minute the flood touched (this flood
    // uses each address about once: the guesser test shows the lines of a few addresses asking often).
    expect(counted).toBeGreaterThanOrEqual(totals.attempts);
    expect(refusedLines.length).toBeLessThanOrEqual(ADDRESSES * 2 + 2);
    expect(
      log.filter(
        (line) => line.msg === 'request' && line.path === '/api/session' && Number(line.status) >= 400,
      ),
    ).toEqual([]);
  });
});
