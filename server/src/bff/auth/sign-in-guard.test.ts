import { describe, expect, it } from 'vitest';
import { createEmbeddedState } from '../../shared-state/index.ts';
import { createSignInGuard, type GuardVerdict, type SignInGuard } from './sign-in-guard.ts';

const MINUTE = 60_000;
const known = (name: string) => name === 'ana' || name === 'bob';

function setup() {
  let time = 1_000_000;
  const state = createEmbeddedState({ now: () => time });
  return {
    state,
    guard: createSignInGuard(state, known),
    advance: (ms: number) => {
      time += ms;
    },
  };
}

type Verdict = GuardVerdict | { allowed: false; reason: 'locked'; retryAfterSeconds: number };

/** What the sign-in route asks, in its order: a lock first, then admission. */
async function check(
  guard: SignInGuard,
  user: string,
  address: string,
  device: string | null = null,
): Promise<Verdict> {
  const locked = await guard.locked(user, address, device);
  if (locked > 0) return { allowed: false, reason: 'locked', retryAfterSeconds: locked };
  return guard.admit(user, address, device);
}

describe('sign-in guard', () => {
  it('locks a user and address pair after 5 failures, and only that pair', async () => {
    const { guard } = setup();
    for (let i = 0; i < 5; i++) {
      expect(await check(guard, 'ana', '10.0.0.1')).toEqual({ allowed: true, trusted: false });
      await guard.fail('ana', '10.0.0.1');
    }
    expect(await check(guard, 'ana', '10.0.0.1')).toMatchObject({ allowed: false, reason: 'locked' });
    expect(await check(guard, 'ana', '10.0.0.2')).toMatchObject({ allowed: true });
    expect(await check(guard, 'bob', '10.0.0.1')).toMatchObject({ allowed: true });
  });

  it('counts the failures of every replica sharing the store as one count', async () => {
    const { state } = setup();
    const replicas = [createSignInGuard(state, known), createSignInGuard(state, known)];
    for (let i = 0; i < 5; i++) {
      const replica = replicas[i % 2] ?? replicas[0];
      if (replica) await check(replica, 'ana', '10.0.0.1');
      await replica?.fail('ana', '10.0.0.1');
    }
    for (const replica of replicas)
      expect(await check(replica, 'ana', '10.0.0.1')).toMatchObject({ allowed: false, reason: 'locked' });
  });

  it('does not lock an address (an office NAT) for 5 failures of different users, only for 50', async () => {
    const { guard } = setup();
    for (let i = 0; i < 49; i++) await guard.fail(`guess-${i}`, '10.0.0.9');
    expect(await check(guard, 'ana', '10.0.0.9')).toMatchObject({ allowed: true });
    await guard.fail('guess-49', '10.0.0.9');
    expect(await check(guard, 'bob', '10.0.0.9')).toMatchObject({ allowed: false, reason: 'locked' });
  });

  it('spaces out one user checks once 5 have failed from anywhere: at most 50 an hour, taken in turn by the requesters', async () => {
    const { guard, advance } = setup();
    // Sixty guessers, each asking once a second from its own address, for two hours.
    const guessers = Array.from({ length: 60 }, (_, i) => `10.0.${i}.7`);
    const hourly = [0, 0];
    const served = new Map<string, number>();
    for (let second = 0; second < 7200; second++) {
      for (const address of guessers) {
        if ((await check(guard, 'ana', address)).allowed) {
          const hour = Math.floor(second / 3600);
          hourly[hour] = (hourly[hour] ?? 0) + 1;
          served.set(address, (served.get(address) ?? 0) + 1);
          await guard.fail('ana', address);
        }
      }
      advance(1000);
    }
    expect(hourly[0]).toBeLessThanOrEqual(50);
    expect(hourly[0]).toBeGreaterThanOrEqual(45);
    expect(hourly[1]).toBeLessThanOrEqual(46);
    expect(hourly[1]).toBeGreaterThanOrEqual(40);
    // In turn: the turns went round the requesters, none took more than a few of them.
    expect(served.size).toBeGreaterThanOrEqual(45);
    expect(Math.max(...served.values())).toBeLessThanOrEqual(3);
  });

  it('serves a spaced user in order of arrival per requester: a poller asking 20 times a second does not win', async () => {
    const { guard, advance } = setup();
    for (let i = 0; i < 5; i++) {
      await check(guard, 'ana', `10.1.0.${i}`);
      await guard.fail('ana', `10.1.0.${i}`);
    }
    const poller = '10.6.6.6';
    const real = '192.0.2.1';
    let realAsks = 0;
    let pollerChecks = 0;
    let nextRealAsk = 0;
    let realVerdict: Verdict | undefined;
    // The real user asks at the time the answer says; the poller every 50 ms. Three minutes at most.
    for (let ms = 0; ms < 180_000; ms += 50) {
      if ((await check(guard, 'ana', poller)).allowed) {
        pollerChecks += 1;
        await guard.fail('ana', poller);
      }
      if (ms >= nextRealAsk) {
        realAsks += 1;
        realVerdict = await check(guard, 'ana', real);
        if (realVerdict.allowed) break;
        expect(realVerdict).toMatchObject({ reason: 'slowed' });
        // It says, within a turn or two, when the real user's turn comes; ask again then (at most 30 s).
        if (realVerdict.reason === 'slowed') expect(realVerdict.turnInSeconds).toBeLessThanOrEqual(160);
        nextRealAsk = ms + (realVerdict.allowed ? 0 : realVerdict.retryAfterSeconds * 1000);
      }
      advance(50);
    }
    expect(realVerdict).toEqual({ allowed: true, trusted: false });
    // The poller, there first, had its turn; then the real user had hers.
    expect(pollerChecks).toBeLessThanOrEqual(2);
    expect(realAsks).toBeLessThanOrEqual(8);
  });

  it('never tells a requester to wait more than 15 min, whatever the number of guessing addresses', async () => {
    const { guard, advance } = setup();
    let longest = 0;
    let full = 0;
    // 1,000 addresses, each asking every 10 s for an hour (100 asks a second), and a real user every 30 s.
    for (let second = 0; second < 3600; second++) {
      const asking = Array.from({ length: 100 }, (_, i) => {
        const n = (second * 100 + i) % 1000;
        return `10.8.${n >> 8}.${n & 255}`;
      });
      if (second % 30 === 0) asking.push('192.0.2.1');
      for (const address of asking) {
        const verdict = await check(guard, 'ana', address);
        if (verdict.allowed) {
          if (address !== '192.0.2.1') await guard.fail('ana', address);
        } else if (verdict.reason === 'slowed')
          longest = Math.max(longest, verdict.turnInSeconds, verdict.retryAfterSeconds);
        else if (verdict.reason === 'full') {
          full += 1;
          longest = Math.max(longest, verdict.retryAfterSeconds);
        }
      }
      advance(1000);
    }
    expect(full).toBeGreaterThan(0);
    expect(longest).toBeGreaterThan(60);
    expect(longest).toBeLessThanOrEqual(15 * 60);
  }, 60_000);

  it('drops a requester that stops asking: it holds no place it does not keep', async () => {
    const { guard, advance } = setup();
    for (let i = 0; i < 5; i++) {
      await check(guard, 'ana', `10.1.0.${i}`);
      await guard.fail('ana', `10.1.0.${i}`);
    }
    expect(await check(guard, 'ana', '10.2.0.0')).toMatchObject({ allowed: true });
    await guard.fail('ana', '10.2.0.0');
    // A thousand addresses ask once each and never again.
    for (let i = 1; i <= 1000; i++) await check(guard, 'ana', `10.2.${i >> 8}.${i & 255}`);
    advance(61_000);
    // A minute later they hold nothing: the real user is first in line, for the next turn.
    expect(await check(guard, 'ana', '192.0.2.1')).toMatchObject({ allowed: false, reason: 'slowed' });
    advance(20_000);
    expect(await check(guard, 'ana', '192.0.2.1')).toEqual({ allowed: true, trusted: false });
  });

  it('lets a trusted device through the spacing, until that device itself fails 5 times', async () => {
    const { guard } = setup();
    for (let i = 0; i < 20; i++) {
      const verdict = await check(guard, 'ana', `10.5.0.${i}`);
      if (verdict.allowed) await guard.fail('ana', `10.5.0.${i}`);
    }
    expect(await check(guard, 'ana', '192.0.2.1')).toMatchObject({ allowed: false });
    expect(await check(guard, 'ana', '192.0.2.1', 'device-1')).toEqual({ allowed: true, trusted: true });
    await guard.abandon('ana', 'device-1');
    for (let i = 0; i < 5; i++) await guard.fail('ana', `192.0.2.${10 + i}`, 'device-1');
    expect(await check(guard, 'ana', '192.0.2.99', 'device-1')).toMatchObject({
      allowed: false,
      reason: 'locked',
    });
  });

  it('counts checks still running, so guesses sent at once get no more than the free failures', async () => {
    const { guard } = setup();
    const verdicts = await Promise.all(
      Array.from({ length: 20 }, (_, i) => check(guard, 'ana', `10.9.0.${i}`)),
    );
    expect(verdicts.filter((v) => v.allowed)).toHaveLength(6);
  });

  it('a flood of fresh addresses and names cannot flush a user count', async () => {
    const { guard } = setup();
    for (let i = 0; i < 5; i++) {
      await check(guard, 'ana', `10.1.0.${i}`);
      await guard.fail('ana', `10.1.0.${i}`);
    }
    for (let i = 0; i < 5_000; i++) {
      const address = `10.2.${i % 250}.${Math.floor(i / 250)}`;
      await check(guard, `nobody-${i}`, address);
      await guard.fail(`nobody-${i}`, address);
    }
    const guesses = await Promise.all(
      Array.from({ length: 40 }, (_, i) => check(guard, 'ana', `10.3.0.${i}`)),
    );
    expect(guesses.filter((v) => v.allowed).length).toBeLessThanOrEqual(1);
  });

  it('unlocks a pair when its lockout has passed, and doubles the next lockout', async () => {
    const { guard, advance } = setup();
    const failFive = async () => {
      for (let i = 0; i < 5; i++) await guard.fail('bob', '10.0.0.5');
    };
    await failFive();
    expect(await check(guard, 'bob', '10.0.0.5')).toMatchObject({ retryAfterSeconds: 15 * 60 });
    advance(15 * MINUTE);
    expect((await check(guard, 'bob', '10.0.0.5')).allowed).toBe(true);
    await failFive();
    expect(await check(guard, 'bob', '10.0.0.5')).toMatchObject({ retryAfterSeconds: 30 * 60 });
  });

  it('a success starts the pair afresh, but keeps what others did to the address', async () => {
    const { guard } = setup();
    for (let i = 0; i < 4; i++) await guard.fail('ana', '10.0.0.1');
    await guard.succeed('ana', '10.0.0.1');
    for (let i = 0; i < 4; i++) await guard.fail('ana', '10.0.0.1');
    expect((await check(guard, 'ana', '10.0.0.1')).allowed).toBe(true);
  });

  it('counts an IPv6 client by its /64', async () => {
    const { guard } = setup();
    for (let i = 0; i < 5; i++) await guard.fail('ana', `2001:db8:1:2::${i + 1}`);
    expect(await check(guard, 'ana', '2001:db8:1:2:aaaa:bbbb:cccc:dddd')).toMatchObject({ reason: 'locked' });
    expect((await check(guard, 'ana', '2001:db8:1:3::1')).allowed).toBe(true);
  });

  it('lets one device have one check in flight at a time, on every replica', async () => {
    const { state, guard } = setup();
    const replica = createSignInGuard(state, known);
    expect(await check(guard, 'ana', '10.0.0.1', 'device-1')).toEqual({ allowed: true, trusted: true });
    expect(await check(replica, 'ana', '10.0.0.2', 'device-1')).toMatchObject({
      allowed: false,
      reason: 'busy',
    });
    expect(await check(replica, 'ana', '10.0.0.2', 'device-2')).toEqual({ allowed: true, trusted: true });
    await guard.succeed('ana', '10.0.0.1', 'device-1');
    expect(await check(replica, 'ana', '10.0.0.2', 'device-1')).toEqual({ allowed: true, trusted: true });
  });

  it('counts wrong codes against the pair and the address, never against the user', async () => {
    const { guard } = setup();
    for (let i = 0; i < 40; i++) await guard.failCode('ana', `10.7.0.${i}`);
    expect(await check(guard, 'ana', '192.0.2.1')).toEqual({ allowed: true, trusted: false });
    for (let i = 0; i < 5; i++) await guard.failCode('ana', '10.8.0.1');
    expect(await check(guard, 'ana', '10.8.0.1')).toMatchObject({ allowed: false, reason: 'locked' });
  });

  it('takes a code of one time step once, on every replica', async () => {
    const { state, guard } = setup();
    const replica = createSignInGuard(state, known);
    expect(await guard.useCode('ana', 59_000_000)).toBe(true);
    expect(await replica.useCode('ana', 59_000_000)).toBe(false);
    expect(await guard.useCode('ana', 59_000_001)).toBe(true);
    expect(await guard.useCode('bob', 59_000_000)).toBe(true);
  });
});
