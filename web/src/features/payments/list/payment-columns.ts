import type { Payment } from '@payments/shared';
import {
  columnOrderingFeature,
  columnPinningFeature,
  columnResizingFeature,
  columnSizingFeature,
  columnVisibilityFeature,
  createColumnHelper,
  rowSortingFeature,
  tableFeatures,
} from '@tanstack/react-table';
import { isKnownField } from '../fields/field-content.tsx';
import { COMPANY_NAME_COLUMN, fieldLabel } from '../fields/field-labels.ts';
import { LIST_SORTS, type ListSort } from '../view/list-view.ts';

/**
 * What the table does with its columns: hide, order, size (by drag or by key), pin; and its sort, which the BFF
 * applies (manual sorting). Module-level: a new object would rebuild the table's models on every render.
 */
export const paymentTableFeatures = tableFeatures({
  columnVisibilityFeature,
  columnOrderingFeature,
  columnPinningFeature,
  columnSizingFeature,
  columnResizingFeature,
  rowSortingFeature,
});

const helper = createColumnHelper<typeof paymentTableFeatures, Payment>();

/** Whether a column shows until the user chooses: the known fields and the company name, not discovered fields. */
export function shownByDefault(id: string): boolean {
  return isKnownField(id) || id === COMPANY_NAME_COLUMN;
}

export const NUMERIC_COLUMNS = new Set(['amount']);

/** The narrowest and widest a column may be made. */
const COLUMN_MIN_WIDTH = 60;
const COLUMN_MAX_WIDTH = 800;

const STATUS_MIN_WIDTH = 120;
const STATUS_MAX_WIDTH = 420;

/**
 * Wide enough for the longest status seen, so a status the dashboard does not know
 * (`PARTIALLY_REFUNDED_PENDING_REVIEW`) reads in full; beyond the maximum the badge's title holds the rest.
 */
export function statusColumnWidth(statuses: readonly string[]): number {
  const longest = statuses.reduce((most, status) => Math.max(most, status.length), 0);
  // a letter of the badge's bold 0.75rem is at most about 9 px in common fonts; 40 px of cell and badge padding
  return Math.min(STATUS_MAX_WIDTH, Math.max(STATUS_MIN_WIDTH, longest * 9 + 40));
}

/** The columns the BFF can order the list by, and which way each reads first (amounts and dates: most first). */
const SORTABLE: Record<string, { descFirst: boolean }> = {
  created_at: { descFirst: true },
  amount: { descFirst: true },
  counterparty: { descFirst: false },
  status: { descFirst: false },
};

/**
 * The known columns, then one column per field found in the data that the dashboard does not know; a group's
 * list also names each row's company. The rows draw their cells themselves (payment-row.tsx, memoized), so a
 * definition holds the header, the default width and what the user may do with the column.
 */
export function paymentColumns(
  extraFields: readonly string[],
  { timeZone, statusWidth, group }: { timeZone: string; statusWidth: number; group: boolean },
) {
  const column = (id: string, size: number, header = fieldLabel(id)) => ({
    ...helper.accessor((row: Payment) => row[id], {
      id,
      header,
      size,
      minSize: COLUMN_MIN_WIDTH,
      maxSize: COLUMN_MAX_WIDTH,
      // the id is each row's link: it cannot be hidden
      enableHiding: id !== 'id',
      enableSorting: id in SORTABLE,
      sortDescFirst: SORTABLE[id]?.descFirst ?? false,
    }),
    id,
  });
  // The defaults fit a 1400 px screen without a group; wider screens leave room, narrower ones scroll sideways.
  return [
    column('id', 170),
    ...(group ? [column(COMPANY_NAME_COLUMN, 170)] : []),
    // a date, a time and a zone are read whole, and the header says the order
    column('created_at', 235, `${fieldLabel('created_at')} (${timeZone})`),
    // a status the dashboard does not know reads in full (statusColumnWidth)
    column('status', statusWidth),
    column('amount', 125),
    column('currency', 80),
    column('counterparty', 170),
    column('description', 200),
    column('reference', 140),
    column('company_id', 110),
    ...extraFields.map((id) => column(id, 160)),
  ];
}

/** The table's sort state for a list's order: one column, the default order being the newest first. */
export function sortingOf(sort: ListSort | null): Array<{ id: string; desc: boolean }> {
  const [id = 'created_at', direction = 'desc'] = (sort ?? LIST_SORTS[0]).split(':');
  return [{ id, desc: direction === 'desc' }];
}

/** The list's order for the table's sort state; the default order is null (left out of the address). */
export function sortOfSorting(sorting: ReadonlyArray<{ id: string; desc: boolean }>): ListSort | null {
  const first = sorting[0];
  const sort = LIST_SORTS.find(
    (known) => first !== undefined && known === `${first.id}:${first.desc ? 'desc' : 'asc'}`,
  );
  return sort === undefined || sort === LIST_SORTS[0] ? null : sort;
}

/** What a header says of the order its column sets: "newest first", "A to Z"… */
export function orderWords(id: string, desc: boolean): string {
  if (id === 'created_at') return desc ? 'newest first' : 'oldest first';
  if (id === 'amount') return desc ? 'largest first' : 'smallest first';
  return desc ? 'Z to A' : 'A to Z';
}
