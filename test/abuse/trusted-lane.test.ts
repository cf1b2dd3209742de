import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BffProcess,
  type SignInAnswer,
  signIn,
  startBff,
  writeManyUsers,
} from './testing/bff-process.ts';
import { type FloodTotals, startFlood } from './testing/sign-in-flood.ts';

const FLOOD_MS = 10_000;
const PASSWORD = 'abuse-suite-user-password';
const OTHERS = Array.from({ length: 14 }, (_, i) => `user-${String(i + 1).padStart(2, '0')}`);
/** Device cookies the insider collects by signing in again from new browsers. */
const INSIDER_DEVICES = 10;

/** A sign-in from `localAddress` carrying `cookie`; its device cookie, which a first sign-in sets. */
async function signInFrom(origin: string, username: string, localAddress: string, cookie?: string) {
  const agent = new Agent({ localAddress });
  try {
    return await signIn(origin, username, PASSWORD, agent, cookie);
  } finally {
    await agent.close();
  }
}

describe('the trusted lane: a signed-in user signing in again and again with her own device cookies, from 200 addresses', () => {
  let folder: string;
  let bff: BffProcess | undefined;
  let stopFlood: (() => void) | undefined;
  let insider: FloodTotals;
  let others: SignInAnswer[][];
  afterAll(async () => {
    stopFlood?.();
    await bff?.stop();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'abuse-lane-'));
    const users = join(folder, 'users.json');
    await writeManyUsers(users, ['ana', ...OTHERS], PASSWORD);
    bff = await startBff({ AUTH_USERS_FILE: users, SANDBOX_SEED_COUNT: '1000' });
    const { origin, port } = bff;
    // Yesterday: everyone signed in once from her browser, which keeps its device cookie.
    const devices = new Map<string, string>();
    for (const [i, name] of OTHERS.entries())
      devices.set(name, (await signInFrom(origin, name, `127.45.0.${i + 1}`)).deviceCookie);
    const insiderDevices: string[] = [];
    for (let i = 0; i < INSIDER_DEVICES; i++)
      insiderDevices.push((await signInFrom(origin, 'ana', `127.44.0.${i + 1}`)).deviceCookie);

    const flood = startFlood({
      port,
      concurrency: 32,
      durationMs: FLOOD_MS,
      addresses: 200,
      prefix: 46,
      username: 'ana',
      password: PASSWORD,
      cookies: insiderDevices,
    });
    stopFlood = flood.kill;
    await sleep(2_000);
    // Today: the others sign in at once, each from her own browser, trying up to 3 times as told.
    others = await Promise.all(
      OTHERS.map(async (name, i) => {
        const tries: SignInAnswer[] = [];
        for (let attempt = 0; attempt < 3; attempt++) {
          const answer = await signInFrom(origin, name, `127.45.0.${i + 1}`, devices.get(name));
          tries.push(answer);
          if (answer.status === 200) break;
          await sleep(Math.min(3_000, (answer.retryAfter ?? 1) * 1000));
        }
        return tries;
      }),
    );
    insider = await flood.totals;
    console.log(
      [
        `insider: ${insider.attempts} sign-ins with her ${INSIDER_DEVICES} device cookies (${insider.perSecond}/s), answers ${JSON.stringify(insider.outcomes)}`,
        `  the other 14 users, each from her own known browser: ${others.filter((t) => t.at(-1)?.status === 200).length} of 14 in; tries ${others.map((t) => t.length).join(' ')}; answers ${others
          .flat()
          .map((t) => `${t.status} ${t.code ?? ''}`.trim())
          .join(', ')}`,
      ].join('\n'),
    );
  }, 60_000);

  it('the others known devices all get in, each within 3 tries', () => {
    expect(others.map((tries) => tries.at(-1)?.status)).toEqual(OTHERS.map(() => 200));
  });

  it('the insider holds a share of the lane, not all of it: most of her attempts are answered busy at once', () => {
    expect(insider.outcomes['200']).toBeGreaterThan(0);
    expect(insider.outcomes['429 busy']).toBeGreaterThan(insider.outcomes['200'] ?? 0);
  });
});
