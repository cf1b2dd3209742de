import { describe, expect, it } from 'vitest';
import { columnName } from './spreadsheet-ml.ts';
import { columnWidths, xlsxCells } from './xlsx-cells.ts';

const columns = ['id', 'created_at', 'created_at_utc', 'amount', 'currency', 'amount_raw', 'note'];
const berlin = { timeZone: 'Europe/Berlin', amountUnit: 'minor' } as const;
const cells = (
  record: Record<string, unknown>,
  how: { timeZone: string; amountUnit: 'minor' | 'major' } = berlin,
) => Object.fromEntries(xlsxCells({ id: 'p', ...record }, columns, how).map((cell, i) => [columns[i], cell]));

describe('XLSX cells', () => {
  it('are date-times in the zone and in UTC, as Excel counts days; text where Excel has no such day', () => {
    expect(cells({ created_at: '2026-01-15T08:15:30.123Z' })).toMatchObject({
      // 09:15:30.123 in Berlin; 46037 is 2026-01-15 in Excel's count.
      created_at: { kind: 'date', serial: 46037 + (9 * 3600 + 15 * 60 + 30.123) / 86400 },
      created_at_utc: { kind: 'date', serial: 46037 + (8 * 3600 + 15 * 60 + 30.123) / 86400 },
    });
    expect(cells({ created_at: '1899-12-31T00:00:00' })).toMatchObject({
      created_at: { kind: 'text', text: '1899-12-31T00:00:00+01:00' },
    });
    expect(cells({ created_at: 'yesterday' })).toMatchObject({
      created_at: { kind: 'text', text: 'yesterday' },
      created_at_utc: { kind: 'empty' },
    });
  });

  it('give an amount without a known currency its own digits and no code; its raw value stays a number', () => {
    expect(cells({ amount: 12.5 })).toMatchObject({
      amount: { kind: 'number', value: '12.5', format: '#,##0.0' },
      amount_raw: { kind: 'number', value: '12.5' },
    });
    expect(cells({ amount: '1.2345', currency: 'EUR' }).amount).toEqual({
      kind: 'number',
      value: '1.2345',
      format: '#,##0.0000 "EUR"',
    });
  });

  it('keep an amount that is not money out of the amount column, and its raw value as text', () => {
    expect(cells({ amount: 5, currency: 'XYZ' })).toMatchObject({
      amount: { kind: 'empty' },
      amount_raw: { kind: 'text', text: '5' },
    });
  });

  it('are numbers for other fields sent as numbers, text for the rest, cut at what a cell holds', () => {
    expect(cells({ note: 7 }).note).toEqual({ kind: 'number', value: '7' });
    expect(cells({ note: { a: 1 } }).note).toEqual({ kind: 'text', text: '{"a":1}' });
    expect(cells({ note: 'x'.repeat(40_000) }).note).toMatchObject({ text: 'x'.repeat(32_767) });
    expect(cells({ id: 42 }).id).toEqual({ kind: 'text', text: '42' });
  });

  it('size columns to the widest of the header and the rows, within bounds', () => {
    const rows = [
      xlsxCells({ id: 'a-long-payment-id', amount: 123456789, currency: 'EUR' }, ['id', 'amount'], berlin),
    ];
    // `1,234,567.89 EUR`: 16 characters, and a margin.
    expect(columnWidths(['id', 'amount'], rows)).toEqual([19, 18]);
    expect(columnWidths(['x'.repeat(100)], [])).toEqual([60]);
  });
});

describe('column names', () => {
  it('count A to Z, then AA', () => {
    expect([0, 25, 26, 27, 701, 702].map(columnName)).toEqual(['A', 'Z', 'AA', 'AB', 'ZZ', 'AAA']);
  });
});
