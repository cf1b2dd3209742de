import { convertWall } from '../view/zone-wall.ts';

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

const whole = (from: string | null, to: string | null) =>
  (from === null || from.endsWith('T00:00:00')) && (to === null || to.endsWith('T23:59:59'));

/** Both ends in one zone: whole days as dates ("1 May – 31 May 2026"), anything else to the minute. */
function inZone(from: string | null, to: string | null): string {
  const start = from === null ? null : wallOf(from);
  const end = to === null ? null : wallOf(to);
  const wholeDays = whole(from, to);
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
 * The dates a range means, as a person reads them: in the zone times are shown in, or, where the range is whole
 * days of the company's zone (a preset) and not of that one, in the company's days with the zone named. Null for
 * no range.
 */
export function rangeText(
  dateFrom: string | null,
  dateTo: string | null,
  companyZone: string,
  displayZone: string,
): string | null {
  if (dateFrom === null && dateTo === null) return null;
  const shownFrom = dateFrom === null ? null : convertWall(dateFrom, companyZone, displayZone);
  const shownTo = dateTo === null ? null : convertWall(dateTo, companyZone, displayZone);
  if (!whole(shownFrom, shownTo) && whole(dateFrom, dateTo))
    return `${inZone(dateFrom, dateTo)} (${companyZone})`;
  return inZone(shownFrom, shownTo);
}
