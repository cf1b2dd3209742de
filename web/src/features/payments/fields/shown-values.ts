import type { AmountUnit } from '@payments/shared';
import { instantOf, wallClockIn } from '@payments/shared/date-time';
import { currencyExponent, majorAmount } from '@payments/shared/money';

/**
 * What a payment's field shows as text. `asSent` marks a known field whose value has a shape the dashboard does
 * not read (an amount `"12,50"`, a date without a date): it is shown as it came, never guessed at.
 */
export interface ShownValue {
  text: string;
  asSent: boolean;
}

const nothing: ShownValue = { text: '', asSent: false };

/** Any JSON value as one line of text: strings as they are, nothing as nothing, the rest as compact JSON. */
export function jsonText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  return JSON.stringify(value) ?? String(value);
}

/** A known text field (description, counterparty, reference, company, currency): a string, or nothing. */
export function shownText(value: unknown): ShownValue {
  if (value === null || value === undefined) return nothing;
  return { text: jsonText(value), asSent: typeof value !== 'string' };
}

// A table formats thousands of amounts and building an Intl formatter is slow: one per currency and locale.
const moneyFormats = new Map<string, Intl.NumberFormat>();

function moneyFormat(currency: string, locale: string | undefined): Intl.NumberFormat {
  const key = `${locale ?? ''}|${currency}`;
  let format = moneyFormats.get(key);
  if (format === undefined) {
    // Never fewer digits than the amount has: a decimal string is shown in full, not rounded to the currency's.
    format = new Intl.NumberFormat(locale, { style: 'currency', currency, maximumFractionDigits: 20 });
    moneyFormats.set(key, format);
  }
  return format;
}

/**
 * An amount in its currency, read as `majorAmount` reads it (integers in `unit`, decimal strings and fractions
 * in major units) and handed to Intl as the exact decimal string, so no float ever rounds a cent away. Shown
 * as sent when it cannot be read; an amount whose currency is not an ISO code keeps that code beside it.
 */
export function shownAmount(
  amount: unknown,
  currency: unknown,
  unit: AmountUnit,
  locale?: string,
): ShownValue {
  if (amount === null || amount === undefined) return nothing;
  const major = majorAmount(amount, currency, unit);
  if (major === null) return { text: jsonText(amount), asSent: true };
  if (currencyExponent(currency) === null) {
    return {
      text: typeof currency === 'string' && currency !== '' ? `${major} ${currency}` : major,
      asSent: false,
    };
  }
  return { text: moneyFormat(currency as string, locale).format(major as `${number}`), asSent: false };
}

/**
 * A date-time in the zone times are shown in, the zone named (`2026-03-01 14:05:09 CET`): a zone-less value is a
 * wall time in `sourceZone` (the configured zone the upstream's times are meant in), one with `Z` or an offset an
 * instant. Shown as sent when it is neither.
 */
export function shownDateTime(value: unknown, timeZone: string, sourceZone = timeZone): ShownValue {
  if (value === null || value === undefined) return nothing;
  const instant = instantOf(value, sourceZone);
  if (instant === null) return { text: jsonText(value), asSent: true };
  const { date, time, zone } = wallClockIn(instant, timeZone);
  return { text: `${date} ${time} ${zone}`, asSent: false };
}
