import { describe, expect, it } from 'vitest';
import {
  orderWords,
  paymentColumns,
  sortingOf,
  sortOfSorting,
  statusColumnWidth,
} from './payment-columns.ts';

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

describe('the default widths', () => {
  const width = (group: boolean) =>
    paymentColumns([], { timeZone: 'UTC', statusWidth: statusColumnWidth([]), group }).reduce(
      (sum, column) => sum + (column.size ?? 0),
      0,
    );

  it("fit a 1400 px screen's box with every known column; a group's company column scrolls sideways", () => {
    // the box is the screen less the page's padding and the list's border
    expect(width(false)).toBeLessThanOrEqual(1400 - 28 - 2);
    expect(width(true)).toBeGreaterThan(1400 - 28 - 2);
  });
});

describe("the list's order as the table's sort state", () => {
  it('is newest first by default, which the address leaves out', () => {
    expect(sortingOf(null)).toEqual([{ id: 'created_at', desc: true }]);
    expect(sortOfSorting([{ id: 'created_at', desc: true }])).toBeNull();
  });

  it('round-trips every order the BFF knows', () => {
    for (const sort of [
      'amount:asc',
      'amount:desc',
      'counterparty:desc',
      'status:asc',
      'created_at:asc',
    ] as const)
      expect(sortOfSorting(sortingOf(sort))).toBe(sort);
  });

  it('reads an order the BFF does not know as the default', () => {
    expect(sortOfSorting([{ id: 'description', desc: false }])).toBeNull();
    expect(sortOfSorting([])).toBeNull();
  });

  it('says the order in words on the header', () => {
    expect(orderWords('created_at', true)).toBe('newest first');
    expect(orderWords('amount', false)).toBe('smallest first');
    expect(orderWords('counterparty', false)).toBe('A to Z');
  });
});
