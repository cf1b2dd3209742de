import type { Summary } from '@payments/shared';
import { dayIn, wallClockIn } from '@payments/shared/date-time';
import { formatCount } from './number-text.ts';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `10:42` in the zone, or `3 May 10:42` when that is not today there; null for a time that cannot be read. */
export function timeOfDay(iso: string | undefined, zone: string, now = Date.now()): string | null {
  const instant = iso === undefined ? Number.NaN : Date.parse(iso);
  if (Number.isNaN(instant)) return null;
  const { date, time } = wallClockIn(instant, zone);
  if (date === dayIn(now, zone)) return time.slice(0, 5);
  const [, month, day] = date.split('-').map(Number) as [number, number, number];
  return `${day} ${MONTHS[month - 1]} ${time.slice(0, 5)}`;
}

/** What the settled figure is called: "Completed" for `['COMPLETED']`, the statuses' names for others. */
export function settledLabel(statuses: readonly string[]): string {
  const names = statuses.map((status) => {
    const words = status.toLowerCase().replaceAll('_', ' ');
    return words.charAt(0).toUpperCase() + words.slice(1);
  });
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

function payments(n: number): string {
  return `${formatCount(n)} ${n === 1 ? 'payment' : 'payments'}`;
}

/**
 * Why an export's row count differs from the summary's of the same view, or null when it does not (or there is
 * no summary to compare with): the summary counted the view at `as_of`, the file is written now.
 */
export function exportAgainstSummary(rows: number, summary: Summary | null, zone: string): string | null {
  if (summary === null || rows === summary.count) return null;
  if (!summary.complete)
    return `The summary stopped counting at ${formatCount(summary.count)}; the file holds every row.`;
  const at = timeOfDay(summary.as_of, zone);
  const since = at === null ? 'since the summary was counted' : `since ${at}`;
  const diff = Math.abs(rows - summary.count);
  return rows > summary.count
    ? `${payments(diff)} arrived ${since} (the summary counted ${formatCount(summary.count)}).`
    : `${payments(diff)} fewer than the summary counted ${at === null ? '' : `at ${at} `}(${formatCount(summary.count)}): payments left the view ${since}.`;
}
