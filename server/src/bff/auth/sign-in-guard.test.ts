import { describe, expect, it } from 'vitest';
import { createEmbeddedState } from '../../shared-state/index.ts';
import { createSignInGuard } from './sign-in-guard.ts';

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

describe('sign-in guard', () => {
  it('locks a user and address pair after 5 failures, and only that pair', async () => {
    const { guard } = setup();
    for (let i = 0; i < 5; i++) {
      expect(await guard.check('ana', '10.0.0.1')).toEqual({ allowed: true, trusted: false });
      await guard.fail('ana', '10.0.0.1');
    }
    expect(await guard.check('ana', '10.0.0.1')).toMatchObject({ allowed: false, reason: 'locked' });
    expect(await guard.check('ana', '10.0.0.2')).toMatchObject({ allowed: true });
    expect(await guard.check('bob', '10.0.0.1')).toMatchObject({ allowed: true });
  });

  it('counts the failures of every replica sharing the store as one count', async () => {
    const { state } = setup();
    const replicas = [createSignInGuard(state, known), createSignInGuard(state, known)];
    for (let i = 0; i < 5; i++) {
      const replica = replicas[i % 2] ?? replicas[0];
      await replica?.check('ana', '10.0.0.1');
      await replica?.fail('ana', '10.0.0.1');
    }
    for (const replica of replicas)
      expect(await replica.check('ana', '10.0.0.1')).toMatchObject({ allowed: false, reason: 'locked' });
  });

  it('does not lock an address (an office NAT) for 5 failures of different users, only for 50', async () => {
    const { guard } = setup();
    for (let i = 0; i < 49; i++) await guard.fail(`guess-${i}`, '10.0.0.9');
    expect(await guard.check('ana', '10.0.0.9')).toMatchObject({ allowed: true });
    await guard.fail('guess-49', '10.0.0.9');
    expect(await guard.check('bob', '10.0.0.9')).toMatchObject({ allowed: false, reason: 'locked' });
  });

  it('spaces out one user checks once 5 have failed from anywhere: at most 50 an hour, never judged wrong', async () => {
    const { guard, advance } = setup();
    let checks = 0;
    // One guess a second for two hours, each from a fresh address: at most 50 in the first hour, 45 in the next.
    const hourly: number[] = [];
    for (let second = 0; second < 7200; second++) {
      const address = `10.${Math.floor(second / 250)}.${second % 250}.7`;
      if ((await guard.check('ana', address)).allowed) {
        checks += 1;
        await guard.fail('ana', address);
      }
      if (second % 3600 === 3599) {
        hourly.push(checks);
        checks = 0;
      }
      advance(1000);
    }
    expect(hourly[0]).toBeLessThanOrEqual(50);
    expect(hourly[0]).toBeGreaterThanOrEqual(45);
    expect(hourly[1]).toBeLessThanOrEqual(46);
    // The right password meanwhile is told when to come back, not refused as wrong; then it is checked.
    const slowed = await guard.check('ana', '192.0.2.1');
    if (!slowed.allowed) {
      expect(slowed.reason).toBe('slowed');
      advance(slowed.retryAfterSeconds * 1000);
    }
    expect(await guard.check('ana', '192.0.2.1')).toMatchObject({ allowed: true });
  });

  it('lets a trusted device through the spacing, until that device itself fails 5 times', async () => {
    const { guard } = setup();
    for (let i = 0; i < 20; i++) {
      const verdict = await guard.check('ana', `10.5.0.${i}`);
      if (verdict.allowed) await guard.fail('ana', `10.5.0.${i}`);
    }
    expect(await guard.check('ana', '192.0.2.1')).toMatchObject({ allowed: false, reason: 'slowed' });
    expect(await guard.check('ana', '192.0.2.1', 'device-1')).toEqual({ allowed: true, trusted: true });
    await guard.abandon('ana');
    for (let i = 0; i < 5; i++) await guard.fail('ana', `192.0.2.${10 + i}`, 'device-1');
    expect(await guard.check('ana', '192.0.2.99', 'device-1')).toMatchObject({
      allowed: false,
      reason: 'locked',
    });
  });

  it('counts checks still running, so guesses sent at once get no more than the free failures', async () => {
    const { guard } = setup();
    const verdicts = await Promise.all(
      Array.from({ length: 20 }, (_, i) => guard.check('ana', `10.9.0.${i}`)),
    );
    expect(verdicts.filter((v) => v.allowed)).toHaveLength(6);
  });

  it('a flood of fresh addresses and names cannot flush a user count', async () => {
    const { guard } = setup();
    for (let i = 0; i < 5; i++) {
      await guard.check('ana', `10.1.0.${i}`);
      await guard.fail('ana', `10.1.0.${i}`);
    }
    for (let i = 0; i < 5_000; i++) {
      const address = `10.2.${i % 250}.${Math.floor(i / 250)}`;
      await guard.check(`nobody-${i}`, address);
      await guard.fail(`nobody-${i}`, address);
    }
    const guesses = await Promise.all(
      Array.from({ length: 40 }, (_, i) => guard.check('ana', `10.3.0.${i}`)),
    );
    expect(guesses.filter((v) => v.allowed).length).toBeLessThanOrEqual(1);
  });

  it('unlocks a pair when its lockout has passed, and doubles the next lockout', async () => {
    const { guard, advance } = setup();
    const failFive = async () => {
      for (let i = 0; i < 5; i++) await guard.fail('bob', '10.0.0.5');
    };
    await failFive();
    expect(await guard.check('bob', '10.0.0.5')).toMatchObject({ retryAfterSeconds: 15 * 60 });
    advance(15 * MINUTE);
    expect((await guard.check('bob', '10.0.0.5')).allowed).toBe(true);
    await failFive();
    expect(await guard.check('bob', '10.0.0.5')).toMatchObject({ retryAfterSeconds: 30 * 60 });
  });

  it('a success starts the pair afresh, but keeps what others did to the address', async () => {
    const { guard } = setup();
    for (let i = 0; i < 4; i++) await guard.fail('ana', '10.0.0.1');
    await guard.succeed('ana', '10.0.0.1');
    for (let i = 0; i < 4; i++) await guard.fail('ana', '10.0.0.1');
    expect((await guard.check('ana', '10.0.0.1')).allowed).toBe(true);
  });

  it('counts an IPv6 client by its /64', async () => {
    const { guard } = setup();
    for (let i = 0; i < 5; i++) await guard.fail('ana', `2001:db8:1:2::${i + 1}`);
    expect(await guard.check('ana', '2001:db8:1:2:aaaa:bbbb:cccc:dddd')).toMatchObject({ reason: 'locked' });
    expect((await guard.check('ana', '2001:db8:1:3::1')).allowed).toBe(true);
  });
});
