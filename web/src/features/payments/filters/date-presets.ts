import { convertWall, dayIn } from '@payments/shared/date-time';

export const DATE_PRESETS = [
  'Today',
  'Last 7 days',
  'Last 30 days',
  'This month',
  'Last month',
  'This quarter',
  'Last quarter',
  'Year to date',
  'Last year',
] as const;
export type DatePreset = (typeof DATE_PRESETS)[number];

/** `YYYY-MM-DD` of a calendar date given as fields, which Date.UTC normalises (day 0 is the month's last). */
function calendarDay(year: number, month: number, day: number): string {
  return new Date(Date.UTC(year, month - 1, day)).toISOString().slice(0, 10);
}

/**
 * The whole days a preset names, counted in `timeZone` (the company's, unless the user chose to count in the zone
 * they read times in): "today" is the zone's date at `now`, whatever the browser's own zone, so a user abroad
 * sees the same days as the BFF counts. The ends are wall times of `companyZone`, as the filters keep them.
 */
export function presetRange(
  preset: DatePreset,
  now: number,
  timeZone: string,
  companyZone: string = timeZone,
): { dateFrom: string; dateTo: string } {
  const [year, month, day] = dayIn(now, timeZone).split('-').map(Number) as [number, number, number];
  const today = calendarDay(year, month, day);
  // the first month of the quarter
  const quarter = month - ((month - 1) % 3);
  const days: Record<DatePreset, [string, string]> = {
    Today: [today, today],
    'Last 7 days': [calendarDay(year, month, day - 6), today],
    'Last 30 days': [calendarDay(year, month, day - 29), today],
    'This month': [calendarDay(year, month, 1), calendarDay(year, month + 1, 0)],
    'Last month': [calendarDay(year, month - 1, 1), calendarDay(year, month, 0)],
    'This quarter': [calendarDay(year, quarter, 1), calendarDay(year, quarter + 3, 0)],
    'Last quarter': [calendarDay(year, quarter - 3, 1), calendarDay(year, quarter, 0)],
    'Year to date': [calendarDay(year, 1, 1), today],
    'Last year': [calendarDay(year - 1, 1, 1), calendarDay(year - 1, 12, 31)],
  };
  const [from, to] = days[preset];
  const inCompany = (wall: string) => convertWall(wall, timeZone, companyZone) ?? wall;
  return { dateFrom: inCompany(`${from}T00:00:00`), dateTo: inCompany(`${to}T23:59:59`) };
}
