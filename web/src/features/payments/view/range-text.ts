import { periodIn } from '@payments/shared/date-time';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

interface Wall {
  year: string;
  month: string;
  day: number;
  time: string;
}

function wallOf(value: string): Wall {
  const [date = '', time = ''] = value.split('T');
  const [year = '', month = '', day = ''] = date.split('-');
  return { year, month: MONTHS[Number(month) - 1] ?? month, day: Number(day), time: time.slice(0, 5) };
}

const dayText = (w: Wall, year: boolean) => `${w.day} ${w.month}${year ? ` ${w.year}` : ''}`;

/** Both ends in one zone: whole days as dates ("1 May – 31 May 2026"), anything else to the minute. */
function inZone(from: string | null, to: string | null, wholeDays: boolean): string {
  const start = from === null ? null : wallOf(from);
  const end = to === null ? null : wallOf(to);
  if (start !== null && end !== null) {
    if (!wholeDays) return `${dayText(start, true)} ${start.time} – ${dayText(end, true)} ${end.time}`;
    if (from?.slice(0, 10) === to?.slice(0, 10)) return dayText(end, true);
    return `${dayText(start, start.year !== end.year)} – ${dayText(end, true)}`;
  }
  if (start !== null) return `from ${dayText(start, true)}${wholeDays ? '' : ` ${start.time}`}`;
  if (end !== null) return `until ${dayText(end, true)}${wholeDays ? '' : ` ${end.time}`}`;
  return '';
}

/**
 * The dates a range means, as a person reads them, in the zone it counts in (shared/date-time `periodIn`): the
 * company's whole days (a preset), the whole days of the zone times are shown in, or times in that zone. Where
 * times are shown in another zone than the company's, the zone it counts in is named. Null for no range.
 */
export function rangeText(
  dateFrom: string | null,
  dateTo: string | null,
  companyZone: string,
  displayZone: string,
): string | null {
  if (dateFrom === null && dateTo === null) return null;
  const period = periodIn(dateFrom, dateTo, companyZone, displayZone);
  const text = inZone(period.dateFrom, period.dateTo, period.wholeDays);
  return companyZone === displayZone ? text : `${text} (${period.zone})`;
}
