import { type ColumnVisibility, isColumnVisible } from '../fields/column-preferences.ts';
import { COMPANY_NAME_COLUMN } from '../fields/field-labels.ts';

/** The table's columns in its order (payment-columns.ts), the group's company name after the id. */
const KNOWN_ORDER = [
  'id',
  COMPANY_NAME_COLUMN,
  'created_at',
  'status',
  'amount',
  'currency',
  'counterparty',
  'description',
  'reference',
  'company_id',
];

/**
 * The columns a CSV of "what I see" holds: the known ones the user has not hidden, in the table's order, then
 * the discovered fields they turned on. The file holds exactly these, headed by the table's labels.
 */
export function visibleExportColumns(visibility: ColumnVisibility, group: boolean): string[] {
  const known = KNOWN_ORDER.filter(
    (id) => id === 'id' || ((group || id !== COMPANY_NAME_COLUMN) && isColumnVisible(visibility, id, true)),
  );
  const discovered = Object.keys(visibility).filter(
    (id) => visibility[id] === true && !KNOWN_ORDER.includes(id),
  );
  return [...known, ...discovered];
}
