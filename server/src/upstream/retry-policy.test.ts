import { describe, expect, it } from 'vitest';
import { backoffDelay, parseRetryAfter } from './retry-policy.ts';

describe('Retry-After', () => {
  const now = Date.UTC(2026, 0, 1, 12, 0, 0);

  it('reads delay-seconds', () => {
    expect(parseRetryAfter('3', now)).toBe(3_000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
  });

  it('reads an HTTP-date relative to now, and a past date as no wait', () => {
    expect(parseRetryAfter('Thu, 01 Jan 2026 12:00:05 GMT', now)).toBe(5_000);
    expect(parseRetryAfter('Thu, 01 Jan 2026 11:00:00 GMT', now)).toBe(0);
  });

  it.each(['-1', '1.5', 'soon', '', '2026-01-01', '99999999999'])('ignores %j', (value) => {
    expect(parseRetryAfter(value, now)).toBeUndefined();
  });
});

describe('backoff', () => {
  it('grows exponentially, never passes the cap, and is jittered down from the ceiling', () => {
    const options = { baseMs: 100, capMs: 1_000, random: () => 0.999 };
    expect(backoffDelay(0, options)).toBe(99);
    expect(backoffDelay(2, options)).toBe(399);
    expect(backoffDelay(10, options)).toBe(999);
    expect(backoffDelay(3, { ...options, random: () => 0 })).toBe(0);
  });
});
