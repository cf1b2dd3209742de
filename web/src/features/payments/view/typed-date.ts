import { isDateTime } from '@payments/shared/rules';

/** Which end of a range a value sets: what a typed date or minute leaves open is filled from its start or end. */
export type RangeEnd = 'from' | 'to';

/** A date, optionally with `HH:MM` or `HH:MM:SS` after a space or a `T` (the datetime-local form). */
const TYPED_PATTERN = /^(\d{4}-\d{2}-\d{2})(?:[T ]+(\d{1,2}):(\d{2})(?::(\d{2}))?)?$/;

const START = ['00', '00', '00'] as const;
const END = ['23', '59', '59'] as const;

/**
 * A date as a person types it, in a field or in an address, as the API's `YYYY-MM-DDTHH:MM:SS`; null when it is
 * not a real date and time. A date alone is its first second for From and its last for To; a time without
 * seconds, likewise its minute's.
 */
export function parseDateInput(text: string, end: RangeEnd): string | null {
  const match = TYPED_PATTERN.exec(text.trim());
  if (match === null) return null;
  const [, date, hour, minute, second] = match;
  const fill = end === 'from' ? START : END;
  const value =
    hour === undefined
      ? `${date}T${fill[0]}:${fill[1]}:${fill[2]}`
      : `${date}T${hour.padStart(2, '0')}:${minute}:${second ?? fill[2]}`;
  return isDateTime(value) ? value : null;
}

/** A filter value as a date field shows it: the date alone where it stands for the whole day at that end. */
export function dateInputText(value: string | null, end: RangeEnd): string {
  if (value === null) return '';
  const wholeDay = end === 'from' ? 'T00:00:00' : 'T23:59:59';
  return value.endsWith(wholeDay) ? value.slice(0, 10) : value.replace('T', ' ');
}
