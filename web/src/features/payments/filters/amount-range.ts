import { AMOUNT_PATTERN, amountsInverted } from '../view/list-view.ts';

export interface AmountRange {
  amountMin: string | null;
  amountMax: string | null;
}

/**
 * Reads the two amount fields as typed: empty is no bound. What the BFF would refuse (the shared schema's rules: a
 * number in major units, the maximum not below the minimum) is a sentence to show beside the fields instead, so
 * no request is made for it.
 */
export function readAmountRange(minText: string, maxText: string): AmountRange | { problem: string } {
  const amountMin = minText.trim() === '' ? null : minText.trim();
  const amountMax = maxText.trim() === '' ? null : maxText.trim();
  for (const [name, amount] of [
    ['“Amount from”', amountMin],
    ['“Amount to”', amountMax],
  ] as const)
    if (amount !== null && !AMOUNT_PATTERN.test(amount))
      return { problem: `Not applied: ${name} must be a number in major units, such as 100 or 99.95.` };
  if (amountsInverted(amountMin, amountMax))
    return { problem: 'Not applied: “Amount to” is below “Amount from”, so no payment could match.' };
  return { amountMin, amountMax };
}

/** Which currency the bounds are in, for the fields' label: the one chosen, or each payment's own. */
export function amountUnitText(currencies: readonly string[]): string {
  return currencies.length === 1 ? `in ${currencies[0]}` : 'each in its own currency';
}
