import { describe, expect, it } from 'vitest';
import { addressGroup, createSignInGuard } from './sign-in-guard.ts';

const MINUTE = 60_000;
const known = (name: string) => name === 'ana' || name === 'bob';

function clock() {
  let time = 1_000_000;
  return { now: () => time, advance: (ms: number) => (time += ms) };
}

describe('sign-in guard', () => {
  it('locks a user and address pair after 5 failures, and only that pair', () => {
    const { now } = clock();
    const guard = createSignInGuard(known, { now });
    for (let i = 0; i < 5; i++) {
      expect(guard.check('ana', '10.0.0.1')).toEqual({ allowed: true });
      guard.fail('ana', '10.0.0.1');
    }
    expect(guard.check('ana', '10.0.0.1')).toMatchObject({ allowed: false, reason: 'locked' });
    expect(guard.check('ana', '10.0.0.2')).toEqual({ allowed: true });
    expect(guard.check('bob', '10.0.0.1')).toEqual({ allowed: true });
  });

  it('does not lock an address (an office NAT) for 5 failures of different users, only for 50', () => {
    const { now } = clock();
    const guard = createSignInGuard(known, { now });
    for (let i = 0; i < 49; i++) guard.fail(`guess-${i}`, '10.0.0.9');
    expect(guard.check('ana', '10.0.0.9')).toEqual({ allowed: true });
    guard.fail('guess-49', '10.0.0.9');
    expect(guard.check('bob', '10.0.0.9')).toMatchObject({ allowed: false, reason: 'locked' });
  });

  it('spaces out one user checks once 5 have failed from anywhere: at most 50 an hour, never judged wrong', () => {
    const { now, advance } = clock();
    const guard = createSignInGuard(known, { now });
    let checks = 0;
    // One guess a second for an hour, each from a fresh address.
    for (let second = 0; second < 3600; second++) {
      const address = `10.${Math.floor(second / 250)}.${second % 250}.7`;
      if (guard.check('ana', address).allowed) {
        checks += 1;
        guard.fail('ana', address);
      }
      advance(1000);
    }
    expect(checks).toBeLessThanOrEqual(50);
    expect(checks).toBeGreaterThanOrEqual(45);
    // The right password meanwhile is told when to come back, not refused as wrong; then it is checked.
    const slowed = guard.check('ana', '192.0.2.1');
    if (!slowed.allowed) {
      expect(slowed.reason).toBe('slowed');
      advance(slowed.retryAfterSeconds * 1000);
    }
    expect(guard.check('ana', '192.0.2.1')).toEqual({ allowed: true });
  });

  it('counts checks still running, so guesses sent at once get no more than the free failures', () => {
    const { now } = clock();
    const guard = createSignInGuard(known, { now });
    const verdicts = Array.from({ length: 20 }, (_, i) => guard.check('ana', `10.9.0.${i}`));
    expect(verdicts.filter((v) => v.allowed)).toHaveLength(6);
  });

  it('a flood of fresh addresses and names cannot flush a user count', () => {
    const { now } = clock();
    const guard = createSignInGuard(known, { now, maxEntries: 100 });
    for (let i = 0; i < 5; i++) {
      guard.check('ana', `10.1.0.${i}`);
      guard.fail('ana', `10.1.0.${i}`);
    }
    for (let i = 0; i < 5_000; i++) {
      guard.check(`nobody-${i}`, `10.2.${i % 250}.${Math.floor(i / 250)}`);
      guard.fail(`nobody-${i}`, `10.2.${i % 250}.${Math.floor(i / 250)}`);
    }
    const guesses = Array.from({ length: 40 }, (_, i) => guard.check('ana', `10.3.0.${i}`));
    expect(guesses.filter((v) => v.allowed).length).toBeLessThanOrEqual(1);
  });

  it('unlocks a pair when its lockout has passed, and doubles the next lockout', () => {
    const { now, advance } = clock();
    const guard = createSignInGuard(known, { now });
    const failFive = () => {
      for (let i = 0; i < 5; i++) guard.fail('bob', '10.0.0.5');
    };
    failFive();
    expect(guard.check('bob', '10.0.0.5')).toMatchObject({ retryAfterSeconds: 15 * 60 });
    advance(15 * MINUTE);
    expect(guard.check('bob', '10.0.0.5').allowed).toBe(true);
    failFive();
    expect(guard.check('bob', '10.0.0.5')).toMatchObject({ retryAfterSeconds: 30 * 60 });
  });

  it('a success starts the pair afresh, but keeps what others did to the address', () => {
    const { now } = clock();
    const guard = createSignInGuard(known, { now });
    for (let i = 0; i < 4; i++) guard.fail('ana', '10.0.0.1');
    guard.succeed('ana', '10.0.0.1');
    for (let i = 0; i < 4; i++) guard.fail('ana', '10.0.0.1');
    expect(guard.check('ana', '10.0.0.1').allowed).toBe(true);
  });

  it('counts an IPv6 client by its /64, and an IPv4-mapped address as IPv4', () => {
    expect(addressGroup('2001:db8:1:2::a')).toBe('2001:db8:1:2::/64');
    expect(addressGroup('2001:0db8:0001:0002:ffff:1:2:3')).toBe('2001:db8:1:2::/64');
    expect(addressGroup('::1')).toBe('0:0:0:0::/64');
    expect(addressGroup('::ffff:192.0.2.7')).toBe('192.0.2.7');
    expect(addressGroup('192.0.2.7')).toBe('192.0.2.7');
    const { now } = clock();
    const guard = createSignInGuard(known, { now });
    for (let i = 0; i < 5; i++) guard.fail('ana', `2001:db8:1:2::${i + 1}`);
    expect(guard.check('ana', '2001:db8:1:2:aaaa:bbbb:cccc:dddd')).toMatchObject({ reason: 'locked' });
    expect(guard.check('ana', '2001:db8:1:3::1').allowed).toBe(true);
  });
});
