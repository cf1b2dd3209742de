import { isKnownField } from '../fields/field-content.tsx';
import { COMPANY_NAME_COLUMN, fieldLabel } from '../fields/field-labels.ts';

/**
 * A column of the table: its header, its width and whether the user may hide it. The rows draw their cells
 * themselves (payment-row.tsx), so this is all a column is; which ones show is the user's choice
 * (column-preferences.ts).
 */
interface PaymentColumn {
  id: string;
  header: string;
  size: number;
  canHide: boolean;
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
  const column = (id: string, size: number, header = fieldLabel(id)): PaymentColumn => ({
    id,
    header,
    size,
    canHide: true,
  });
  return [
    { ...column('id', 210), canHide: false },
    ...(group ? [column(COMPANY_NAME_COLUMN, 200)] : []),
    column('created_at', 200, `${fieldLabel('created_at')} (${timeZone})`),
    column('status', statusWidth),
    column('amount', 140),
    column('currency', 90),
    column('counterparty', 200),
    column('description', 260),
    column('reference', 160),
    column('company_id', 150),
    ...extraFields.map((id) => column(id, 160)),
  ];
}
