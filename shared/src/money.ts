/**
 * Amounts as exact decimal strings. The upstream's amount field has no specified type, so every reading it may
 * have is interpreted here once, and never through a binary float that could round a cent away.
 */

/** How an integer amount is meant: minor units (cents) or major units (euros). */
export const AMOUNT_UNITS = ['minor', 'major'] as const;
export type AmountUnit = (typeof AMOUNT_UNITS)[number];

/** The major-unit text the upstream may send: no sign but `-`, no exponent, no leading zeros, no separators. */
const MAJOR_TEXT_PATTERN = /^-?(0|[1-9]\d*)(\.\d+)?$/;
/** What addDecimals adds: looser than the upstream's text, since sums are added again. */
const ADDEND_PATTERN = /^[+-]?\d+(\.\d+)?$/;
const CURRENCY_PATTERN = /^[A-Z]{3}$/;

/**
 * Chrome and Safari report CLDR's display digits, which differ from ISO 4217's minor units for these codes
 * (HUF 0 instead of 2); Firefox reports ISO's. Minor units are ISO's, and every engine must agree on them.
 */
const ISO_DIGITS_WHERE_CLDR_DIFFERS: Readonly<Record<string, number>> = {
  AFN: 2,
  ALL: 2,
  COP: 2,
  HUF: 2,
  IDR: 2,
  IQD: 3,
  IRR: 2,
  KPW: 2,
  LAK: 2,
  LBP: 2,
  MGA: 2,
  MMK: 2,
  PKR: 2,
  SLL: 2,
  SOS: 2,
  SYP: 2,
  YER: 2,
};

let knownCurrencies: ReadonlySet<string> | undefined;
const exponents = new Map<string, number>();

/** ISO 4217 minor-unit digits of a currency code (JPY 0, EUR 2, BHD 3), from Intl; null when `currency` is not a 3-letter upper-case code Intl knows. */
export function currencyExponent(currency: unknown): number | null {
  if (typeof currency !== 'string' || !CURRENCY_PATTERN.test(currency)) return null;
  let exponent = exponents.get(currency);
  if (exponent === undefined) {
    // Intl formats any well-formed code (XYZ with 2 digits); only the list says which ones are real.
    knownCurrencies ??= new Set(Intl.supportedValuesOf('currency'));
    if (!knownCurrencies.has(currency)) return null;
    exponent =
      ISO_DIGITS_WHERE_CLDR_DIFFERS[currency] ??
      new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ??
      2;
    exponents.set(currency, exponent);
  }
  return exponent;
}

/** The amount as an exact decimal string in major units, or null when it cannot be interpreted (never guessed). */
export function majorAmount(amount: unknown, currency: unknown, unit: AmountUnit): string | null {
  const exponent = currencyExponent(currency);
  if (typeof amount === 'number') {
    if (Number.isSafeInteger(amount)) {
      if (unit === 'major') return padFraction(String(amount), exponent);
      return exponent === null ? null : decimalText(BigInt(amount), exponent);
    }
    // A fraction means major units whatever the unit; String(n) is the shortest text that reads back as n.
    if (!Number.isFinite(amount) || Number.isInteger(amount)) return null;
    const text = String(amount);
    return text.includes('e') ? null : padFraction(text, exponent);
  }
  if (typeof amount === 'string' && MAJOR_TEXT_PATTERN.test(amount)) return padFraction(amount, exponent);
  return null;
}

/** Exact sum of two decimal strings (any number of fraction digits, signs allowed), normalised. */
export function addDecimals(a: string, b: string): string {
  const x = scaledInteger(a);
  const y = scaledInteger(b);
  const scale = Math.max(x.scale, y.scale);
  const sum = x.units * 10n ** BigInt(scale - x.scale) + y.units * 10n ** BigInt(scale - y.scale);
  return decimalText(sum, scale);
}

/** Compares two decimal strings exactly: negative when a < b, 0 when equal, positive when a > b. */
export function compareDecimals(a: string, b: string): number {
  const x = scaledInteger(a);
  const y = scaledInteger(b);
  const scale = Math.max(x.scale, y.scale);
  const left = x.units * 10n ** BigInt(scale - x.scale);
  const right = y.units * 10n ** BigInt(scale - y.scale);
  return left < right ? -1 : left > right ? 1 : 0;
}

/** `1.50` → 150 hundredths. A malformed addend is a caller's mistake, not data: it throws, without the value. */
function scaledInteger(decimal: string): { units: bigint; scale: number } {
  if (!ADDEND_PATTERN.test(decimal)) throw new RangeError('addDecimals: not a decimal string');
  const [whole = '', fraction = ''] = decimal.split('.');
  return { units: BigInt(whole + fraction), scale: fraction.length };
}

/** `units` × 10^-scale as text, with `scale` fraction digits and no negative zero. */
function decimalText(units: bigint, scale: number): string {
  const sign = units < 0n ? '-' : '';
  const digits = (units < 0n ? -units : units).toString().padStart(scale + 1, '0');
  return scale === 0 ? `${sign}${digits}` : `${sign}${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
}

/** Pads the fraction with zeros up to the currency's digits, never cutting any; `-0.00` becomes `0.00`. */
function padFraction(decimal: string, exponent: number | null): string {
  const [whole = '', fraction = ''] = decimal.split('.');
  const digits = exponent === null ? fraction : fraction.padEnd(exponent, '0');
  const text = digits === '' ? whole : `${whole}.${digits}`;
  return /^-[0.]+$/.test(text) ? text.slice(1) : text;
}
