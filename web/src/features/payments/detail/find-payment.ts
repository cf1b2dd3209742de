import type { MergedRows } from '../list/merge-rows.ts';

/**
 * Where the payment `/payments/<id>` names is among the rows, or -1. The address holds the id alone, and in a
 * group's list several companies may have a payment of that id: the one of `company` (the company of the row that
 * was opened, when a row was), else the first.
 */
export function findPayment(
  { rows, companyIds }: Pick<MergedRows, 'rows' | 'companyIds'>,
  id: string,
  company: string | undefined,
): number {
  let first = -1;
  for (const [index, row] of rows.entries()) {
    if (String(row.id) !== id) continue;
    if (company === undefined || companyIds[index] === company) return index;
    if (first < 0) first = index;
  }
  return first;
}
