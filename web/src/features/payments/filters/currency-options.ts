/** Currencies offered whatever the data holds, so a filter can be set before any payment in it is loaded. */
const COMMON = ['EUR', 'USD', 'GBP', 'JPY', 'CHF', 'CAD', 'AUD', 'SEK', 'NOK', 'DKK', 'PLN', 'CZK'];
const CODE = /^[A-Z]{3}$/;

/**
 * The currencies the filter offers: those chosen, those seen in the loaded rows and the figures, and the common
 * ones, each once, in alphabetical order. Values that are no currency code are left out (they cannot be asked for).
 */
export function currencyOptions(...sources: ReadonlyArray<Iterable<unknown>>): string[] {
  const codes = new Set<string>(COMMON);
  for (const source of sources)
    for (const code of source) if (typeof code === 'string' && CODE.test(code)) codes.add(code);
  return [...codes].sort();
}
