import { describe, expect, it } from 'vitest';
import { columnFlex, paymentColumns, statusColumnWidth } from './payment-columns.ts';

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

describe('the columns share the box', () => {
  const columns = (group: boolean) =>
    paymentColumns([], { timeZone: 'UTC', statusWidth: statusColumnWidth([]), group });
  const least = (group: boolean) => columns(group).reduce((sum, column) => sum + column.min, 0);

  it('each from its least width, growing by what its full width adds; the date does not shrink', () => {
    expect(columnFlex({ size: 260, min: 160 })).toBe('100 0 160px');
    const created = columns(false).find((column) => column.id === 'created_at');
    expect(created && columnFlex(created)).toBe('0 0 215px');
  });

  it("fit a 1440 px screen's box with every known column, a group's company too", () => {
    // the box is the screen less the page's padding and the list's border
    expect(least(true)).toBeLessThanOrEqual(1440 - 28 - 2);
    // at 1024 px the first seven columns stay, the rest give way
    const seven = columns(false)
      .slice(0, 7)
      .reduce((sum, column) => sum + column.min, 0);
    expect(seven).toBeLessThanOrEqual(1024 - 28 - 2);
    expect(least(false)).toBeGreaterThan(1024 - 28 - 2);
  });
});
