/**
 * The company a payment is from, by name: a column of the view and a line of the drawer, not a payment field, so
 * its id cannot be a JSON member the upstream might send.
 */
export const COMPANY_NAME_COLUMN = '@company';

const LABELS: Record<string, string> = {
  id: 'Payment ID',
  [COMPANY_NAME_COLUMN]: 'Company',
  company_id: 'Company ID',
  status: 'Status',
  amount: 'Amount',
  currency: 'Currency',
  created_at: 'Created',
  description: 'Description',
  counterparty: 'Counterparty',
  reference: 'Reference',
};

/** What the table's header and the drawer call a field; a field the dashboard does not know by its own name. */
export function fieldLabel(id: string): string {
  return LABELS[id] ?? id;
}
