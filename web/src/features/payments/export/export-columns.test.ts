import { describe, expect, it } from 'vitest';
import { noteShownColumns } from '../fields/column-layout.ts';
import { shownExportColumns } from './export-columns.ts';

describe('the columns of a "shown columns" export', () => {
  it("are the table's default ones, in its order, before a table was drawn", () => {
    expect(shownExportColumns(false)).toEqual([
      'id',
      'created_at',
      'status',
      'amount',
      'currency',
      'counterparty',
      'description',
      'reference',
      'company_id',
    ]);
    expect(shownExportColumns(true).slice(0, 3)).toEqual(['id', '@company', 'created_at']);
  });

  it('are those the table last drew, in the order on screen', () => {
    noteShownColumns(['amount', 'id', 'fee', 'status']);
    expect(shownExportColumns(false)).toEqual(['amount', 'id', 'fee', 'status']);
  });
});
