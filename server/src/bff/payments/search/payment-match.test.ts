import { describe, expect, it } from 'vitest';
import { paymentMatcher } from './payment-match.ts';

const row = {
  id: 'pay_123',
  reference: 'INV-2026-0042',
  counterparty: 'Müller & Söhne GmbH',
  amount: 12050,
  currency: 'EUR',
};

describe('what a search finds', () => {
  it.each([
    ['an id, or any part of it', 'pay_12'],
    ['a reference in any case', 'inv-2026'],
    ['a counterparty without its accents', 'muller & sohne'],
    ['a counterparty with them, in capitals', 'MÜLLER'],
    ['the amount as the table shows it', '120.50'],
    ['the amount with fewer decimals', '120.5'],
    ['a range holding the amount', '100..200'],
    ['a range written high to low', '200..100'],
  ])('finds %s', (_what, query) => {
    expect(paymentMatcher(query, 'minor')(row)).toBe(true);
  });

  it.each([
    ['another amount', '120.51'],
    ['a range beside it', '121..200'],
    ['text that is in no field', 'schmidt'],
  ])('does not find %s', (_what, query) => {
    expect(paymentMatcher(query, 'minor')(row)).toBe(false);
  });

  it('reads amounts as the dashboard does: integers in major units when the upstream says so, decimals as they are', () => {
    expect(paymentMatcher('120.50', 'major')({ ...row, amount: 12050 })).toBe(false);
    expect(paymentMatcher('12050', 'major')({ ...row, amount: 12050 })).toBe(true);
    expect(paymentMatcher('97.65', 'major')({ ...row, amount: '97.65' })).toBe(true);
  });

  it('finds an id beyond 2^53 by its digits, and a number-looking text in an id', () => {
    const big = { id: JSON.rawJSON('9007199254740993'), amount: 5, currency: 'EUR' };
    expect(paymentMatcher('9007199254740993', 'minor')(big)).toBe(true);
    expect(paymentMatcher('54740993', 'minor')(big)).toBe(true);
  });
});
