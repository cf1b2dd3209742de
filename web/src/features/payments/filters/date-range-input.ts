import { dayIn } from '@payments/shared/date-time';
import type { RangeEnd } from '../view/typed-date.ts';

/** A filter value as the field shows it: the date alone where it stands for the whole day at that end. */
export function dateInputText(value: string | null, end: RangeEnd): string {
  if (value === null) return '';
  const wholeDay = end === 'from' ? 'T00:00:00' : 'T23:59:59';
  return value.endsWith(wholeDay) ? value.slice(0, 10) : value.replace('T', ' ');
}

export const DATE_PRESETS = ['Today', 'Yesterday', 'Last 7 days', 'This month', 'Last month'] as const;
export type DatePreset = (typeof DATE_PRESETS)[number];

/** `YYYY-MM-DD` of a calendar date given as fields, which Date.UTC normalises (day 0 is the month's last). */
function calendarDay(year: number, month: number, day: number): string {
  return new Date(Date.UTC(year, month - 1, day)).toISOString().slice(0, 10);
}

/**
 * The whole days a preset names, counted in the configured zone: "today" is the zone's date at `now`, whatever
 * the browser's own zone, so a user abroad sees the same days as the BFF counts.
 */
export function presetRange(
  preset: DatePreset,
  now: number,
  timeZone: string,
): { dateFrom: string; dateTo: string } {
  const [year, month, day] = dayIn(now, timeZone).split('-').map(Number) as [number, number, number];
  const days: Record<DatePreset, [string, string]> = {
    Today: [calendarDay(year, month, day), calendarDay(year, month, day)],
    Yesterday: [calendarDay(year, month, day - 1), calendarDay(year, month, day - 1)],
    'Last 7 days': [calendarDay(year, month, day - 6), calendarDay(year, month, day)],
    'This month': [calendarDay(year, month, 1), calendarDay(year, month + 1, 0)],
    'Last month': [calendarDay(year, month - 1, 1), calendarDay(year, month, 0)],
  };
  const [from, to] = days[preset];
  return { dateFrom: `${from}T00:00:00`, dateTo: `${to}T23:59:59` };
}
