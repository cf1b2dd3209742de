import { describe, expect, it } from 'vitest';
import { isListPath, safeNext, signInPath } from './paths.ts';

describe('sign-in return address', () => {
  it.each([
    ['/payments/p1?status=FAILED', '/payments/p1?status=FAILED'],
    ['/?company=x', '/?company=x'],
    ['//evil.example/x', '/'],
    ['/\\evil.example', '/'],
    ['https://evil.example/', '/'],
    [null, '/'],
  ])('next=%j leads to %j', (next, expected) => {
    expect(safeNext(next)).toBe(expected);
  });

  it('carries the current URL and the reason to the sign-in page', () => {
    expect(signInPath('/payments/p1?status=FAILED', 'expired')).toBe(
      '/sign-in?next=%2Fpayments%2Fp1%3Fstatus%3DFAILED&reason=expired',
    );
    expect(signInPath('/')).toBe('/sign-in');
  });
});

describe('the list paths', () => {
  it('are the list itself and a payment opened over it', () => {
    expect(isListPath('/')).toBe(true);
    expect(isListPath('/payments/pay_1')).toBe(true);
    expect(isListPath('/sign-in')).toBe(false);
    expect(isListPath('/paymentsx')).toBe(false);
  });
});
