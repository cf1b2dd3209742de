import type { Summary } from '@payments/shared';
import { useId, useMemo, useState } from 'react';
import { type DayFigures, dailySeries, mainCurrency } from '../utils/daily-series.ts';
import { formatCount } from '../utils/number-text.ts';
import { shownAmount } from '../utils/shown-values.ts';

interface Props {
  summary: Summary;
  /** The view's range: the chart spans it where it is set. */
  dateFrom: string | null;
  dateTo: string | null;
  timeZone: string;
}

/** Height of each band in the drawing's own units; the stylesheet sets the size on screen. */
const BAND = 40;

function money(total: string, currency: string): string {
  return shownAmount(total, currency, 'major').text;
}

function volumeOf(figures: DayFigures, currency: string | null): string | null {
  return figures.totals.find((total) => total.currency === currency)?.total ?? null;
}

/** The day with the highest value, for the label that says what the bars show. */
function peak(series: readonly DayFigures[], value: (figures: DayFigures) => number) {
  let best: DayFigures | undefined;
  for (const figures of series) if (best === undefined || value(figures) > value(best)) best = figures;
  return best;
}

/**
 * Payments and volume per day as two bands of bars, for the range of the view. The bars are one image with a
 * label that says what they show; the numbers themselves are in a table behind "Numbers", for screen readers
 * and for anyone who wants them exactly.
 */
export function DailyChart({ summary, dateFrom, dateTo, timeZone }: Props) {
  const captionId = useId();
  const series = useMemo(
    () => dailySeries(summary.days, { dateFrom, dateTo }),
    [summary.days, dateFrom, dateTo],
  );
  const [chosen, setChosen] = useState<string | null>(null);
  // a currency chosen for other figures that these do not hold gives way to theirs
  const currency = summary.totals.some((total) => total.currency === chosen)
    ? chosen
    : mainCurrency(summary.totals);
  const [tableOpen, setTableOpen] = useState(false);
  const first = series[0];
  const last = series.at(-1);
  if (first === undefined || last === undefined) return null;

  // Heights only: a float is exact enough for a bar, the amounts shown are the exact decimal strings.
  // A day whose refunds outweigh its payments draws no bar rather than one below the line.
  const volume = (figures: DayFigures) => Math.max(0, Number(volumeOf(figures, currency) ?? 0));
  const maxCount = Math.max(1, ...series.map((figures) => figures.count));
  const maxVolume = Math.max(Number.MIN_VALUE, ...series.map(volume));
  const busiest = peak(series, (figures) => figures.count);
  const largest = peak(series, volume);
  const gap = series.length <= 120 ? 0.15 : 0;
  const label = [
    `Payments per day from ${first.day} to ${last.day} (${timeZone}).`,
    busiest ? `Most payments on ${busiest.day}: ${formatCount(busiest.count)}.` : '',
    currency && largest && volume(largest) > 0
      ? `Largest ${currency} volume on ${largest.day}: ${money(volumeOf(largest, currency) ?? '0', currency)}.`
      : '',
  ].join(' ');

  return (
    <figure className="chart" aria-labelledby={captionId}>
      <figcaption id={captionId} className="chart__caption">
        Per day, {first.day} – {last.day}
        {summary.undated > 0 && ` (${formatCount(summary.undated)} without a date not drawn)`}
      </figcaption>
      <div className="chart__keys">
        <span className="chart__key--count">payments</span>
        {summary.totals.length > 1 ? (
          <select
            className="chart__key--volume"
            aria-label="Volume in currency"
            value={currency ?? ''}
            onChange={(event) => setChosen(event.target.value)}
          >
            {summary.totals.map((total) => (
              <option key={total.currency} value={total.currency}>
                {total.currency}
              </option>
            ))}
          </select>
        ) : (
          <span className="chart__key--volume">{currency}</span>
        )}
      </div>
      <svg
        className="chart__bars"
        role="img"
        aria-label={label}
        viewBox={`0 0 ${series.length} ${2 * BAND + 4}`}
        preserveAspectRatio="none"
      >
        {series.map((figures, index) => {
          const countHeight = (figures.count / maxCount) * BAND;
          const volumeHeight = (volume(figures) / maxVolume) * BAND;
          return (
            <g key={figures.day}>
              <title>
                {`${figures.day}: ${formatCount(figures.count)} payments${
                  currency ? `, ${money(volumeOf(figures, currency) ?? '0', currency)}` : ''
                }`}
              </title>
              <rect
                className="chart__count"
                x={index + gap / 2}
                y={BAND - countHeight}
                width={1 - gap}
                height={countHeight}
              />
              <rect
                className="chart__volume"
                x={index + gap / 2}
                y={2 * BAND + 4 - volumeHeight}
                width={1 - gap}
                height={volumeHeight}
              />
            </g>
          );
        })}
      </svg>
      <details className="chart__numbers" onToggle={(event) => setTableOpen(event.currentTarget.open)}>
        <summary>Numbers</summary>
        {tableOpen && (
          <table className="chart__table">
            <caption className="visually-hidden">Payments and volume per day ({timeZone})</caption>
            <thead>
              <tr>
                <th scope="col">Day</th>
                <th scope="col">Payments</th>
                <th scope="col">Volume</th>
              </tr>
            </thead>
            <tbody>
              {series.map((figures) => (
                <tr key={figures.day}>
                  <th scope="row">{figures.day}</th>
                  <td className="is-numeric">{formatCount(figures.count)}</td>
                  <td className="is-numeric">
                    {figures.totals.map((total) => money(total.total, total.currency)).join(' · ')}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </details>
    </figure>
  );
}
