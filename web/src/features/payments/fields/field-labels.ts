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

/**
 * What the table's header and the drawer call a field; a field the dashboard does not know by its own name. Only
 * the table's own entries count: an upstream field named like an object key (`constructor`) is not a label.
 */
export function fieldLabel(id: string): string {
  return Object.hasOwn(LABELS, id) ? (LABELS[id] as string) : id;
}

/** What a status filter says of the statuses chosen: `AWAITING, FAILED`, or "All statuses" for none. */
export function statusesText(statuses: readonly string[]): string {
  return statuses.length === 0 ? 'All statuses' : statuses.join(', ');
}
