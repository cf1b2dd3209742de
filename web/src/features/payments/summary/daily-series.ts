import type { Summary } from '@payments/shared';

export type DayFigures = Summary['days'][number];

const DAY_MS = 86_400_000;
/** Beyond this many days the gaps are not filled: a bad bound must not make a chart of millions of bars. */
const MAX_DAYS = 3_700;

function dayNumber(day: string): number {
  return Date.parse(`${day}T00:00:00Z`) / DAY_MS;
}

/**
 * Every day of the range, those without payments as zero, so the bars stand where their days are. The range is
 * the filter's where it has one (open ends take the first and last day with payments).
 */
export function dailySeries(
  days: readonly DayFigures[],
  range: { dateFrom: string | null; dateTo: string | null },
): DayFigures[] {
  const first = range.dateFrom?.slice(0, 10) ?? days[0]?.day;
  const last = range.dateTo?.slice(0, 10) ?? days.at(-1)?.day;
  if (first === undefined || last === undefined) return [...days];
  const [start, end] = [dayNumber(first), dayNumber(last)];
  if (!(end >= start && end - start < MAX_DAYS)) return [...days];
  const byDay = new Map(days.map((figures) => [figures.day, figures]));
  const series: DayFigures[] = [];
  for (let n = start; n <= end; n++) {
    const day = new Date(n * DAY_MS).toISOString().slice(0, 10);
    series.push(byDay.get(day) ?? { day, count: 0, totals: [] });
  }
  return series;
}

/** The currency most payments are in: the one whose volume the chart draws first. */
export function mainCurrency(totals: Summary['totals']): string | null {
  let main: Summary['totals'][number] | undefined;
  for (const total of totals) if (main === undefined || total.count > main.count) main = total;
  return main?.currency ?? null;
}
