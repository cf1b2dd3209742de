import { shownColumns } from '../fields/column-layout.ts';
import { paymentColumns, shownByDefault } from '../list/payment-columns.ts';

/**
 * The columns a file of "what I see" holds: those the table shows, in the order on screen (pinned ones first);
 * before a table is drawn, the table's default columns. The file holds exactly these, headed by the table's labels.
 */
export function shownExportColumns(group: boolean): string[] {
  const shown = shownColumns();
  if (shown !== null) return [...shown];
  return paymentColumns([], { timeZone: 'UTC', statusWidth: 0, group })
    .map((column) => column.id)
    .filter(shownByDefault);
}
