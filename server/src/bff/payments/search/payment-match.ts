import { type AmountUnit, compareDecimals, majorAmount, type Payment } from '@payments/shared';

const AMOUNT = /^-?\d+(\.\d+)?$/;
const AMOUNT_RANGE = /^(-?\d+(?:\.\d+)?)\.\.(-?\d+(?:\.\d+)?)$/;

/** Printable ASCII: nothing in it decomposes. */
const ASCII = /^[ -~]*$/;

/** Text as a person compares it: accents and case aside, spaces trimmed (ASCII has no accent to take off). */
function folded(text: string): string {
  return (ASCII.test(text) ? text : text.normalize('NFD').replace(/\p{M}/gu, '')).toLowerCase().trim();
}

/** A value as the dashboard shows it: strings as they are, anything else as its JSON (a number's digits). */
const shown = (value: unknown) =>
  value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);

/**
 * What a search looks for, matched on what the user sees: the id, the reference or the counterparty containing the
 * text (case and accents aside), or the amount, as the table shows it in major units, equal to `120.50` or within
 * `100..200` (inclusive, in the row's own currency).
 */
export function paymentMatcher(query: string, amountUnit: AmountUnit): (record: Payment) => boolean {
  const text = folded(query);
  const range = AMOUNT_RANGE.exec(query.trim());
  const exact = AMOUNT.test(query.trim()) ? query.trim() : undefined;
  const [low, high] = range
    ? [range[1] as string, range[2] as string].sort(compareDecimals)
    : exact
      ? [exact, exact]
      : [undefined, undefined];
  return (record) => {
    if (low !== undefined && high !== undefined) {
      const amount = majorAmount(record.amount, record.currency, amountUnit);
      if (amount !== null && compareDecimals(amount, low) >= 0 && compareDecimals(amount, high) <= 0)
        return true;
    }
    return [record.id, record.reference, record.counterparty].some((field) =>
      folded(shown(field)).includes(text),
    );
  };
}
