import { describe, expect, it } from 'vitest';
import { createThrottle, signInThrottleKeys } from './throttle.ts';

const MINUTE = 60_000;

function clock(start = Date.UTC(2026, 0, 1)) {
  const state = { now: start };
  return { now: () => state.now, advance: (ms: number) => (state.now += ms) };
}

describe('sign-in throttle', () => {
  it('locks a username after 5 failures, whatever addresses they came from', () => {
    const time = clock();
    const throttle = createThrottle({ now: time.now });
    for (let i = 0; i < 4; i++) throttle.fail(signInThrottleKeys('ana', `10.0.0.${i}`));
    expect(throttle.check(signInThrottleKeys('ana', '10.0.0.9')).allowed).toBe(true);
    throttle.fail(signInThrottleKeys('ana', '10.0.0.4'));
    const verdict = throttle.check(signInThrottleKeys('ana', '10.0.0.9'));
    expect(verdict).toEqual({ allowed: false, retryAfterSeconds: 15 * 60, reason: 'locked' });
    expect(throttle.check(signInThrottleKeys('bo', '10.0.0.9')).allowed).toBe(true);
  });

  it('locks an address after 5 failures, whatever usernames it tried', () => {
    const time = clock();
    const throttle = createThrottle({ now: time.now });
    for (let i = 0; i < 5; i++) throttle.fail(signInThrottleKeys(`user${i}`, '192.0.2.7'));
    expect(throttle.check(signInThrottleKeys('someone-else', '192.0.2.7')).allowed).toBe(false);
    expect(throttle.check(signInThrottleKeys('someone-else', '192.0.2.8')).allowed).toBe(true);
  });

  it('folds username case, so "Ana" and "ana" share one budget', () => {
    const throttle = createThrottle({ now: clock().now });
    for (const name of ['Ana', 'ANA', 'ana', 'aNa', 'AnA'])
      throttle.fail(signInThrottleKeys(name, `a-${name}`));
    expect(throttle.check(signInThrottleKeys('ana', 'fresh')).allowed).toBe(false);
  });

  it('unlocks when the lockout has passed, counting down Retry-After meanwhile', () => {
    const time = clock();
    const throttle = createThrottle({ now: time.now, maxFailures: 3, lockoutMs: 10 * MINUTE });
    for (let i = 0; i < 3; i++) throttle.fail(['user:ana']);
    time.advance(4 * MINUTE);
    expect(throttle.check(['user:ana'])).toEqual({
      allowed: false,
      retryAfterSeconds: 6 * 60,
      reason: 'locked',
    });
    time.advance(6 * MINUTE);
    expect(throttle.check(['user:ana'])).toEqual({ allowed: true, retryAfterSeconds: 0 });
  });

  it('doubles the lockout when a key is locked again soon after', () => {
    const time = clock();
    const throttle = createThrottle({
      now: time.now,
      maxFailures: 2,
      lockoutMs: MINUTE,
      windowMs: 10 * MINUTE,
    });
    throttle.fail(['k']);
    throttle.fail(['k']);
    expect(throttle.check(['k']).retryAfterSeconds).toBe(60);
    time.advance(MINUTE);
    throttle.fail(['k']);
    throttle.fail(['k']);
    expect(throttle.check(['k']).retryAfterSeconds).toBe(120);
  });

  it('forgets failures older than the window', () => {
    const time = clock();
    const throttle = createThrottle({ now: time.now, maxFailures: 3, windowMs: 5 * MINUTE });
    throttle.fail(['k']);
    throttle.fail(['k']);
    time.advance(5 * MINUTE + 1);
    throttle.fail(['k']);
    throttle.fail(['k']);
    expect(throttle.check(['k']).allowed).toBe(true);
    throttle.fail(['k']);
    expect(throttle.check(['k']).allowed).toBe(false);
  });

  it('a success resets the failure count of its keys', () => {
    const throttle = createThrottle({ now: clock().now, maxFailures: 3 });
    throttle.fail(['user:ana']);
    throttle.fail(['user:ana']);
    throttle.succeed(['user:ana']);
    throttle.fail(['user:ana']);
    throttle.fail(['user:ana']);
    expect(throttle.check(['user:ana']).allowed).toBe(true);
    throttle.fail(['user:ana']);
    expect(throttle.check(['user:ana']).allowed).toBe(false);
  });

  it('counts attempts still in progress: no more run at once than failures are left before a lockout', () => {
    const time = clock();
    const throttle = createThrottle({ now: time.now, maxFailures: 3 });
    throttle.fail(['k']);
    expect(throttle.check(['k']).allowed).toBe(true);
    expect(throttle.check(['k']).allowed).toBe(true);
    expect(throttle.check(['k'])).toEqual({ allowed: false, retryAfterSeconds: 1, reason: 'busy' });
    throttle.succeed(['k'], []);
    expect(throttle.check(['k']).allowed).toBe(true);
    throttle.fail(['k']);
    throttle.fail(['k']);
    expect(throttle.check(['k']).allowed).toBe(false);
    expect(throttle.check(['k']).retryAfterSeconds).toBe(15 * 60);
  });

  it('a success forgets only the keys it is told to, and ends the attempt under all of them', () => {
    const throttle = createThrottle({ maxFailures: 2 });
    throttle.fail(['user:ana', 'address:a']);
    expect(throttle.check(['user:ana', 'address:a']).allowed).toBe(true);
    throttle.succeed(['user:ana', 'address:a'], ['user:ana']);
    expect(throttle.check(['user:ana']).allowed).toBe(true);
    throttle.succeed(['user:ana'], []);
    throttle.fail(['address:a']);
    expect(throttle.check(['address:a']).allowed).toBe(false);
  });

  it('forgets an expired history when an attempt starts, so the next lockout is not doubled', () => {
    const time = clock();
    const throttle = createThrottle({ now: time.now, maxFailures: 1, windowMs: MINUTE, lockoutMs: MINUTE });
    throttle.fail(['k']);
    time.advance(10 * MINUTE);
    expect(throttle.check(['k']).allowed).toBe(true);
    throttle.fail(['k']);
    expect(throttle.check(['k']).retryAfterSeconds).toBe(60);
  });

  it('successful sign-ins from an address do not keep its lockout history alive', () => {
    const time = clock();
    const throttle = createThrottle({ now: time.now, maxFailures: 1, windowMs: MINUTE, lockoutMs: MINUTE });
    throttle.fail(['address:a']);
    for (let i = 0; i < 20; i += 1) {
      time.advance(MINUTE / 2);
      if (throttle.check(['address:a']).allowed) throttle.succeed(['address:a'], []);
    }
    throttle.fail(['address:a']);
    expect(throttle.check(['address:a']).retryAfterSeconds).toBe(60);
  });

  it('keeps no entry for sign-ins that passed, so they take no room from failures', () => {
    const throttle = createThrottle({ maxEntries: 3 });
    throttle.fail(['victim']);
    for (let i = 0; i < 50; i += 1) {
      const keys = signInThrottleKeys(`user${i}`, `10.0.0.${i}`);
      if (throttle.check(keys).allowed) throttle.succeed(keys, keys.slice(0, 1));
    }
    throttle.fail(['victim']);
    throttle.fail(['victim']);
    throttle.fail(['victim']);
    throttle.fail(['victim']);
    expect(throttle.check(['victim']).allowed).toBe(false);
  });

  it('keeps memory bounded, dropping the least recently touched keys', () => {
    const throttle = createThrottle({ now: clock().now, maxFailures: 1, maxEntries: 100 });
    throttle.fail(['first']);
    for (let i = 0; i < 500; i++) throttle.fail([`spray-${i}`]);
    expect(throttle.check(['spray-499']).allowed).toBe(false);
    expect(throttle.check(['first']).allowed).toBe(true);
  });

  it('a flood of fresh keys does not lift a lockout: unlocked keys are dropped first', () => {
    const throttle = createThrottle({ now: clock().now, maxFailures: 2, maxEntries: 100 });
    throttle.fail(['victim']);
    throttle.fail(['victim']);
    for (let i = 0; i < 500; i++) throttle.fail([`spray-${i}`]);
    expect(throttle.check(['victim']).allowed).toBe(false);
    // Memory stays bounded all the same: the oldest unlocked key was forgotten, so one more failure is its first.
    throttle.fail(['spray-0']);
    expect(throttle.check(['spray-0']).allowed).toBe(true);
    throttle.fail(['spray-499']);
    expect(throttle.check(['spray-499']).allowed).toBe(false);
  });
});
