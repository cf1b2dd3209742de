import { describe, expect, it } from 'vitest';
import { statusColumnWidth } from './payment-columns.ts';

describe('the status column', () => {
  it('grows as wide as the longest status seen needs, within bounds', () => {
    expect(statusColumnWidth([])).toBe(120);
    const known = statusColumnWidth(['COMPLETED', 'CANCELLED']);
    const long = statusColumnWidth(['COMPLETED', 'PARTIALLY_REFUNDED_PENDING_REVIEW']);
    expect(long).toBeGreaterThan(known);
    expect(long).toBeGreaterThanOrEqual(33 * 9 + 36);
    expect(statusColumnWidth(['X'.repeat(500)])).toBe(420);
  });
});
