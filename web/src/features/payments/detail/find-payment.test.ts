import { describe, expect, it } from 'vitest';
import { findPayment } from './find-payment.ts';

const group = {
  rows: [{ id: 1 }, { id: 2 }, { id: 1 }, { id: '2' }],
  companyIds: ['acme-eu', 'acme-eu', 'acme-us', 'acme-us'],
};

describe('finding the payment the address names', () => {
  it("takes the first row of that id when the address is all there is (a deep link to a group's list)", () => {
    expect(findPayment(group, '1', undefined)).toBe(0);
    expect(findPayment(group, '2', undefined)).toBe(1);
  });

  it('takes the row of the company whose row was opened, when several companies have that id', () => {
    expect(findPayment(group, '1', 'acme-us')).toBe(2);
    expect(findPayment(group, '2', 'acme-us')).toBe(3);
  });

  it('falls back to the first row of that id when that company has none loaded, and says when none is', () => {
    expect(findPayment(group, '1', 'acme-jp')).toBe(0);
    expect(findPayment(group, '3', undefined)).toBe(-1);
  });
});
