import { describe, expect, it } from 'vitest';
import { monthOf } from './newest-payment.ts';

describe('monthOf', () => {
  it("is the whole month of a payment's created_at, and its day as people read it", () => {
    expect(monthOf('2026-05-31T18:02:11')).toEqual({
      day: '31 May 2026',
      dateFrom: '2026-05-01T00:00:00',
      dateTo: '2026-05-31T23:59:59',
    });
    expect(monthOf('2024-02-03T00:00:00')?.dateTo).toBe('2024-02-29T23:59:59');
    expect(monthOf('yesterday')).toBeNull();
    expect(monthOf(undefined)).toBeNull();
  });
});
