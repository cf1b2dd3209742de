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
  signIn,
  startBff,
  writeManyUsers,
} from './testing/bff-process.ts';
import { type FloodTotals, startFlood } from './testing/sign-in-flood.ts';

const GUESS_MS = 8_000;
const CONCURRENCY = 32;
/** The guesser's source addresses: a few, each polling as fast as it can. */
const GUESSER_ADDRESSES = 4;
const PASSWORD = 'abuse-suite-user-password';
/** One user's checks an hour once spaced out (50, of which 5 free): one turn every 80 s. */
const SPACING_S = 3600 / 45;

const describeAnswer = (t: SignInAnswer) =>
  `${t.status}${t.code ? ` ${t.code}` : ''}${t.retryAfter ? ` (Retry-After ${t.retryAfter} s${t.turnInSeconds ? `, turn in ${t.turnInSeconds} s` : ''})` : ''}`;

describe('a guesser polling one username from 4 addresses, as fast as it can, for 8 s', () => {
  let folder: string;
  let bff: BffProcess | undefined;
  const stops: (() => void)[] = [];
  let tinaGuesser: FloodTotals;
  let anaGuesser: FloodTotals;
  const tina: SignInAnswer[] = [];
  const ana: SignInAnswer[] = [];
  let log: Record<string, unknown>[];
  afterAll(async () => {
    for (const stop of stops) stop();
    await bff?.stop();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'abuse-guesser-'));
    const users = join(folder, 'users.json');
    const secrets = await writeManyUsers(users, ['ana', 'tina'], PASSWORD, ['tina']);
    bff = await startBff({ AUTH_USERS_FILE: users, SANDBOX_SEED_COUNT: '1000' });
    const { origin, port } = bff;
    const guess = (username: string, prefix: number, totp?: string) => {
      const flood = startFlood({
        port,
        concurrency: CONCURRENCY,
        durationMs: GUESS_MS,
        addresses: GUESSER_ADDRESSES,
        prefix,
        username,
        ...(totp ? { totp } : {}),
      });
      stops.push(flood.kill);
      return flood.totals;
    };

    // Tina signs in with a code; her guesser has none (it sends 000000).
    const tinaGuessing = guess('tina', 50, '000000');
    await sleep(2_000);
    const tinaBrowser = new Agent({ localAddress: '127.43.0.2' });
    tina.push(await signIn(origin, 'tina', PASSWORD, tinaBrowser));
    tina.push(
      await signIn(origin, 'tina', PASSWORD, tinaBrowser, undefined, codeOf(secrets.get('tina') ?? '')),
    );
    await tinaBrowser.close();
    tinaGuesser = await tinaGuessing;

    // Ana has no code: she waits her turn behind the guesser's places, however fast it polls.
    const anaGuessing = guess('ana', 51);
    await sleep(2_000);
    const anaBrowser = new Agent({ localAddress: '127.43.0.1' });
    ana.push(await signIn(origin, 'ana', PASSWORD, anaBrowser));
    await sleep(2_000);
    ana.push(await signIn(origin, 'ana', PASSWORD, anaBrowser));
    await anaBrowser.close();
    anaGuesser = await anaGuessing;

    await bff.stop();
    log = bff.logLines();
    const refused = log.filter((line) => line.msg === 'sign_in_refused');
    console.log(
      [
        `guesser of tina (with wrong codes): ${tinaGuesser.attempts} attempts (${tinaGuesser.perSecond}/s), answers ${JSON.stringify(tinaGuesser.outcomes)}`,
        `  tina, new device: ${tina.map(describeAnswer).join(', ')}`,
        `guesser of ana: ${anaGuesser.attempts} attempts (${anaGuesser.perSecond}/s), answers ${JSON.stringify(anaGuesser.outcomes)}`,
        `  ana, new device: ${ana.map(describeAnswer).join(', ')}; "${ana[0]?.detail}"`,
        `  log: ${refused.length} sign_in_refused lines for ${tinaGuesser.attempts + anaGuesser.attempts} guesses`,
      ].join('\n'),
    );
  }, 60_000);

  it('a user with a code signs in at once: asked for it, then in, no wait', () => {
    expect(tina.map((t) => t.status)).toEqual([401, 200]);
    expect(tina[0]?.code).toBe('totp_required');
    // The guesser without the code got no password check: every answer cheap, none a wrong password.
    expect(tinaGuesser.outcomes['401 invalid_credentials'] ?? 0).toBeLessThanOrEqual(
      5 * GUESSER_ADDRESSES + 1,
    );
    // Polling: far more often than a person asks (on a quiet machine, thousands in these 8 s).
    expect(tinaGuesser.attempts).toBeGreaterThan(100);
  });

  it('a user without one is told in plain words that sign-ins for her name are slowed, and when her turn comes', () => {
    for (const answer of ana) {
      expect(answer.status).toBe(429);
      expect(answer.code).toBe('rate_limited');
      expect(answer.detail).toMatch(
        /sign-ins are slowed and taken in turn: yours comes in about \d+ (s|min)/,
      );
      expect(answer.retryAfter).toBeLessThanOrEqual(30);
      // Behind at most one place per guesser address, and her own.
      expect(answer.turnInSeconds).toBeLessThanOrEqual((GUESSER_ADDRESSES + 1) * SPACING_S);
    }
    // The guesser polled on meanwhile, yet her turn came no later: it did not move ahead of her.
    expect(ana[1]?.turnInSeconds).toBeLessThanOrEqual(ana[0]?.turnInSeconds ?? 0);
  });

  it('the guesser got its free failures and one turn, however fast it polled', () => {
    const wrong = anaGuesser.outcomes['401 invalid_credentials'] ?? 0;
    expect(wrong).toBeLessThanOrEqual(6);
    expect(anaGuesser.attempts).toBeGreaterThan(100);
  });

  it('logs its guesses as a line per address and minute', () => {
    const refused = log.filter((line) => line.msg === 'sign_in_refused');
    // Eight guessing addresses, a few minutes at most, and the two users' own.
    expect(refused.length).toBeLessThanOrEqual(2 * GUESSER_ADDRESSES * 3 + 6);
  });
});
