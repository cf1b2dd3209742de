import { isKnownField } from '../fields/field-content.tsx';
import { COMPANY_NAME_COLUMN, fieldLabel } from '../fields/field-labels.ts';

/**
 * A column of the table: its header, its widths and whether the user may hide it. The rows draw their cells
 * themselves (payment-row.tsx), so this is all a column is; which ones show is the user's choice
 * (column-preferences.ts).
 */
interface PaymentColumn {
  id: string;
  header: string;
  /** Its width where there is room for every column. */
  size: number;
  /** The least it takes: below it the column gives way (columnFlex). */
  min: number;
  canHide: boolean;
}

/**
 * A column's share of a row as CSS flex: it starts at its least width and grows by what its full width adds, so
 * the columns fill the box, whatever its width. Rows wrap their cells and show their first line only: where the
 * least widths do not fit, the last columns give way, and the table never grows wider than its box.
 */
export function columnFlex({ size, min }: Pick<PaymentColumn, 'size' | 'min'>): string {
  return `${Math.max(0, size - min)} 0 ${min}px`;
}

/** Whether a column shows until the user chooses: the known fields and the company name, not discovered fields. */
export function shownByDefault(id: string): boolean {
  return isKnownField(id) || id === COMPANY_NAME_COLUMN;
}

export const NUMERIC_COLUMNS = new Set(['amount']);

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

/**
 * The known columns, then one column per field found in the data that the dashboard does not know; a group's
 * list also names each row's company.
 */
export function paymentColumns(
  extraFields: readonly string[],
  { timeZone, statusWidth, group }: { timeZone: string; statusWidth: number; group: boolean },
): PaymentColumn[] {
  const column = (id: string, size: number, min: number, header = fieldLabel(id)): PaymentColumn => ({
    id,
    header,
    size,
    min: Math.min(size, min),
    canHide: true,
  });
  return [
    { ...column('id', 200, 150), canHide: false },
    ...(group ? [column(COMPANY_NAME_COLUMN, 200, 150)] : []),
    // a date, a time and a zone are read whole: this one does not shrink
    column('created_at', 215, 215, `${fieldLabel('created_at')} (${timeZone})`),
    // a status the dashboard does not know reads in full (statusColumnWidth): it does not shrink either
    column('status', statusWidth, statusWidth),
    column('amount', 140, 110),
    column('currency', 90, 84),
    column('counterparty', 200, 140),
    column('description', 260, 160),
    column('reference', 160, 90),
    column('company_id', 150, 90),
    ...extraFields.map((id) => column(id, 160, 90)),
  ];
}
