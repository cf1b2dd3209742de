import type { Payment } from '@payments/shared';
import {
  type ColumnDef,
  columnSizingFeature,
  columnVisibilityFeature,
  createColumnHelper,
  tableFeatures,
} from '@tanstack/react-table';

/**
 * The table's columns hold headers, widths and visibility; the rows draw their cells themselves (payment-row.tsx)
 * rather than through TanStack's row model, which would build and keep a cell object per field of every row
 * ever drawn.
 */
export const paymentTableFeatures = tableFeatures({ columnVisibilityFeature, columnSizingFeature });
type Features = typeof paymentTableFeatures;
type PaymentColumn = ColumnDef<Features, Payment, unknown>;

const helper = createColumnHelper<Features, Payment>();

const LABELS: Record<string, string> = {
  id: 'Payment ID',
  company_id: 'Company',
  status: 'Status',
  amount: 'Amount',
  currency: 'Currency',
  created_at: 'Created',
  description: 'Description',
  counterparty: 'Counterparty',
  reference: 'Reference',
};

export function columnLabel(id: string): string {
  return LABELS[id] ?? id;
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

/** The known columns, then one column per field found in the data that the dashboard does not know. */
export function paymentColumns(
  extraFields: readonly string[],
  { timeZone, statusWidth }: { timeZone: string; statusWidth: number },
): PaymentColumn[] {
  const column = (id: string, size: number, header = columnLabel(id)) =>
    helper.display({ id, header, size }) as PaymentColumn;
  return [
    helper.display({ id: 'id', header: columnLabel('id'), size: 210, enableHiding: false }) as PaymentColumn,
    column('created_at', 200, `${columnLabel('created_at')} (${timeZone})`),
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
