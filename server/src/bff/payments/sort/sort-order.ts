import {
  type AmountUnit,
  compareDecimals,
  instantOf,
  majorAmount,
  type Payment,
  type Sort,
} from '@payments/shared';
import { idText } from '../walk/row-key.ts';

/** A row of a view as a sorted view keeps it: the record and the company whose list it is of. */
export interface SortedRow {
  record: Payment;
  company: string;
}

/** Text ids of equal length compare as numbers do when both are digits: "9" before "10". */
function compareIds(a: string, b: string): number {
  const digits = /^\d+$/;
  if (digits.test(a) && digits.test(b) && a.length !== b.length) return a.length - b.length;
  return a < b ? -1 : a > b ? 1 : 0;
}

const text = (value: unknown) => (typeof value === 'string' ? value : null);
const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true });

/** A missing value goes last whichever way the sort runs: it is not the smallest nor the largest. */
function compareNullable<T>(a: T | null, b: T | null, compare: (x: T, y: T) => number, sign: number) {
  if (a === null || b === null) return a === null ? (b === null ? 0 : 1) : -1;
  return sign * compare(a, b);
}

/**
 * The order of a sorted view. Amounts are money only within a currency: a sort by amount groups rows by currency
 * (codes in alphabetical order, whichever way amounts run), then by amount as an exact decimal; an amount that
 * cannot be read goes last in its currency. Counterparties compare as a person reads them (case and accents
 * aside, numbers as numbers). Ties, and rows without the value, are broken by id (ascending), then by company.
 */
export function sortOrder(
  sort: Sort,
  how: { timeZone: string; amountUnit: AmountUnit },
): (a: SortedRow, b: SortedRow) => number {
  const [field, way] = sort.split(':') as [string, 'asc' | 'desc'];
  const sign = way === 'asc' ? 1 : -1;
  const byValue = (() => {
    switch (field) {
      case 'created_at':
        return (a: Payment, b: Payment) =>
          compareNullable(
            instantOf(a.created_at, how.timeZone),
            instantOf(b.created_at, how.timeZone),
            (x, y) => x - y,
            sign,
          );
      case 'amount':
        return (a: Payment, b: Payment) => {
          const currencies = compareNullable(
            text(a.currency),
            text(b.currency),
            (x, y) => (x < y ? -1 : x > y ? 1 : 0),
            1,
          );
          if (currencies !== 0) return currencies;
          return compareNullable(
            majorAmount(a.amount, a.currency, how.amountUnit),
            majorAmount(b.amount, b.currency, how.amountUnit),
            compareDecimals,
            sign,
          );
        };
      case 'counterparty':
        return (a: Payment, b: Payment) =>
          compareNullable(text(a.counterparty), text(b.counterparty), collator.compare, sign);
      default:
        return (a: Payment, b: Payment) =>
          compareNullable(text(a.status), text(b.status), (x, y) => (x < y ? -1 : x > y ? 1 : 0), sign);
    }
  })();
  return (a, b) =>
    byValue(a.record, b.record) ||
    compareIds(idText(a.record.id), idText(b.record.id)) ||
    (a.company < b.company ? -1 : a.company > b.company ? 1 : 0);
}
