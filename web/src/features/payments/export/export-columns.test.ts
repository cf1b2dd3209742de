import { describe, expect, it } from 'vitest';
import { visibleExportColumns } from './export-columns.ts';

describe('visibleExportColumns', () => {
  it('follows the table: known columns unless hidden, in its order, then discovered fields turned on', () => {
    expect(visibleExportColumns({}, false)).toEqual([
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
    expect(
      visibleExportColumns(
        { description: false, reference: false, company_id: false, fee: true, tags: false },
        true,
      ),
    ).toEqual(['id', '@company', 'created_at', 'status', 'amount', 'currency', 'counterparty', 'fee']);
  });

  it('always keeps the payment id, which cannot be hidden', () => {
    expect(visibleExportColumns({ id: false }, false)[0]).toBe('id');
  });
});
