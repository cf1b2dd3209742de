import type { Payment } from '@payments/shared';
import {
  type ColumnDef,
  columnSizingFeature,
  columnVisibilityFeature,
  createColumnHelper,
  tableFeatures,
} from '@tanstack/react-table';
import type { ReactNode } from 'react';
import { StatusBadge } from '../../../components/status-badge.tsx';
import { formatDateTime, formatMoney, formatUnknown } from '../../../lib/format.ts';

export const paymentTableFeatures = tableFeatures({ columnVisibilityFeature, columnSizingFeature });
type Features = typeof paymentTableFeatures;
export type PaymentColumn = ColumnDef<Features, Payment, unknown>;

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

export interface ColumnContext {
  timeZone: string;
}

/**
 * What a cell of column `id` shows for `row`. The table body calls this directly for the rows in view, without
 * TanStack's per-row cell objects: those are cached on every row ever rendered, tens of MB after scrolling through
 * 20,000 rows, which made every garbage collection slower.
 */
export function cellContent(id: string, row: Payment, context: ColumnContext): ReactNode {
  const value = row[id];
  switch (id) {
    case 'id':
      return String(row.id); // the table renders this cell as the row's link to its detail
    case 'created_at':
      return typeof value === 'string' ? formatDateTime(value, context.timeZone) : '';
    case 'status':
      return typeof value === 'string' ? <StatusBadge status={value} /> : '';
    case 'amount': {
      const { amount, currency } = row;
      return typeof amount === 'number' && typeof currency === 'string'
        ? formatMoney(amount, currency)
        : formatUnknown(amount);
    }
    default:
      return formatUnknown(value);
  }
}

/** The known columns, formatted, then one plain column per unknown field found in the data. */
export function paymentColumns(extraFields: readonly string[], context: ColumnContext): PaymentColumn[] {
  const column = (key: string, size: number, header = columnLabel(key)) =>
    helper.accessor((row) => row[key], {
      id: key,
      header,
      size,
      cell: (info) => cellContent(key, info.row.original, context),
    }) as PaymentColumn;
  return [
    helper.accessor((row) => String(row.id), {
      id: 'id',
      header: columnLabel('id'),
      size: 210,
      enableHiding: false,
      cell: (info) => cellContent('id', info.row.original, context),
    }) as PaymentColumn,
    column('created_at', 200, `${columnLabel('created_at')} (${context.timeZone})`),
    column('status', 120),
    column('amount', 140),
    column('currency', 90),
    column('counterparty', 200),
    column('description', 260),
    column('reference', 160),
    column('company_id', 150),
    ...extraFields.map((key) => column(key, 160)),
  ];
}

export const NUMERIC_COLUMNS = new Set(['amount']);
