import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { median } from '@payments/server/testing/median';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BffProcess,
  type SignInAnswer,
  signIn,
  startBff,
  writeManyUsers,
} from './testing/bff-process.ts';

/**
 * Enough to see every answer alike; the medians' ratio (target within 5 %) is `pnpm bench abuse`'s, where a busy
 * machine moves a figure, not a build.
 */
const TRIES = 40;
const PASSWORD = 'abuse-suite-user-password';
/** Known users get 4 wrong passwords each: under the 5 that would space their checks out. */
const KNOWN = Array.from({ length: TRIES / 4 }, (_, i) => `known-${i}`);

/** One wrong sign-in from its own address (127.<prefix>.x.y, never used twice): how long the answer took. */
async function timedSignIn(origin: string, username: string, prefix: number, n: number) {
  const agent = new Agent({ localAddress: `127.${prefix}.${1 + Math.floor(n / 250)}.${1 + (n % 250)}` });
  try {
    const started = performance.now();
    const answer = await signIn(origin, username, 'a wrong password', agent);
    return { ms: performance.now() - started, answer };
  } finally {
    await agent.close();
  }
}

describe('sign-in timing: an unknown name and a known name with a wrong password, 40 tries each', () => {
  let folder: string;
  let bff: BffProcess | undefined;
  const unknown: number[] = [];
  const known: number[] = [];
  const answers: SignInAnswer[] = [];
  afterAll(async () => {
    await bff?.stop();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'abuse-timing-'));
    const users = join(folder, 'users.json');
    // A quarter of pnpm user:add's cost (2^13, not 2^15): sign-ins of the production cost take long on a
    // busy 2-core machine, and the two answers compared both wait on the same cost.
    await writeManyUsers(users, [...KNOWN, 'warm-up'], PASSWORD, [], 2 ** 13);
    bff = await startBff({ AUTH_USERS_FILE: users, SANDBOX_SEED_COUNT: '1000' });
    await sleep(1_000);
    for (let i = 0; i < 4; i++) await timedSignIn(bff.origin, 'warm-up', 62, i);
    // Interleaved, the order alternating, so that the machine's drift falls on both alike.
    for (let i = 0; i < TRIES; i++) {
      const pair = [
        () => timedSignIn(bff?.origin ?? '', `nobody-${i}`, 60, i),
        () => timedSignIn(bff?.origin ?? '', KNOWN[i % KNOWN.length] ?? '', 61, i),
      ] as const;
      const order = i % 2 === 0 ? pair : ([pair[1], pair[0]] as const);
      const first = await order[0]();
      const second = await order[1]();
      const [u, k] = i % 2 === 0 ? [first, second] : [second, first];
      unknown.push(u.ms);
      known.push(k.ms);
      answers.push(u.answer, k.answer);
    }
    console.log(
      `sign-in timing, ${TRIES} tries each: unknown name median ${median(unknown).toFixed(1)} ms, known name with a wrong password ${median(known).toFixed(1)} ms (ratio ${(median(unknown) / median(known)).toFixed(3)}); p10/p90 unknown ${quantile(unknown, 0.1).toFixed(1)}/${quantile(unknown, 0.9).toFixed(1)}, known ${quantile(known, 0.1).toFixed(1)}/${quantile(known, 0.9).toFixed(1)}`,
    );
  }, 150_000);

  it('answers both alike: 401 invalid_credentials', () => {
    expect(new Set(answers.map((a) => `${a.status} ${a.code}`))).toEqual(
      new Set(['401 invalid_credentials']),
    );
  });
});

function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}
