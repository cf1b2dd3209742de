import type { Summary } from '@payments/shared';
import { memo, type PointerEvent as ReactPointerEvent, useId, useMemo, useState } from 'react';
import { formatCount } from '../fields/number-text.ts';
import { shownAmount } from '../fields/shown-values.ts';
import { type DayFigures, dailySeries, mainCurrency } from './daily-series.ts';

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

const compactCount = new Intl.NumberFormat('en-US', { notation: 'compact' });

/** A bar's full height as a short figure: `1.2K`, `€3.4M`. */
function compactMoney(value: number, currency: string): string {
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency, notation: 'compact' }).format(value);
  } catch {
    return `${compactCount.format(value)} ${currency}`;
  }
}

/** The first, middle and last days of the series: the axis under the bars. */
function axisDays(series: readonly DayFigures[]): string[] {
  const days = [series[0], series[Math.floor((series.length - 1) / 2)], series.at(-1)].map(
    (figures) => figures?.day ?? '',
  );
  return [...new Set(days)];
}

function volumeOf(figures: DayFigures, currency: string | null): string | null {
  return figures.totals.find((total) => total.currency === currency)?.total ?? null;
}

/**
 * One band of bars as a single path (a bar per day would be thousands of elements over a few years, and their
 * first drawing a long task on a phone): `height` in the band's units, bars standing on `baseline`.
 */
function barsPath(heights: readonly number[], baseline: number, gap: number): string {
  let path = '';
  heights.forEach((exact, index) => {
    // a hundredth of a band's unit is far below a pixel, and keeps the path short
    const height = Math.round(exact * 100) / 100;
    if (height > 0) path += `M${index + gap / 2} ${baseline}v${-height}h${1 - gap}v${height}z`;
  });
  return path;
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
// memo: the list around it draws again with every page it loads; the chart changes only with its figures
export const DailyChart = memo(function DailyChart({ summary, dateFrom, dateTo, timeZone }: Props) {
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
  const [pointed, setPointed] = useState<number | null>(null);
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
  const pointedDay = pointed === null ? undefined : series[pointed];
  const pointAt = (event: ReactPointerEvent<SVGSVGElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    if (box.width <= 0) return;
    const index = Math.floor(((event.clientX - box.left) / box.width) * series.length);
    setPointed(Math.min(series.length - 1, Math.max(0, index)));
  };
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
      {/* the day under the pointer, over the caption; the exact numbers of every day are behind "Numbers" */}
      {pointedDay && (
        <p className="chart__pointed" data-testid="chart-pointed" aria-hidden="true">
          {`${pointedDay.day}: ${formatCount(pointedDay.count)} ${pointedDay.count === 1 ? 'payment' : 'payments'}${
            currency ? `, ${money(volumeOf(pointedDay, currency) ?? '0', currency)}` : ''
          }`}
        </p>
      )}
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
        onPointerMove={pointAt}
        onPointerLeave={() => setPointed(null)}
      >
        <path
          className="chart__count"
          d={barsPath(
            series.map((figures) => (figures.count / maxCount) * BAND),
            BAND,
            gap,
          )}
        />
        <path
          className="chart__volume"
          d={barsPath(
            series.map((figures) => (volume(figures) / maxVolume) * BAND),
            2 * BAND + 4,
            gap,
          )}
        />
        {pointed !== null && (
          <rect className="chart__pointer" x={pointed} y={0} width={1} height={2 * BAND + 4} />
        )}
      </svg>
      {/* the height of each band's tallest bar: the scale of the bars */}
      <div className="chart__scale" aria-hidden="true">
        <span>{compactCount.format(maxCount)}</span>
        <span>{currency && largest ? compactMoney(volume(largest), currency) : ''}</span>
      </div>
      <div className="chart__axis" aria-hidden="true">
        {axisDays(series).map((day) => (
          <span key={day}>{day}</span>
        ))}
      </div>
      <details
        className="chart__numbers"
        onToggle={(event) => setTableOpen(event.currentTarget.open)}
        // Escape puts the numbers away and gives focus back to their summary, as the Columns panel does
        onKeyDown={(event) => {
          if (event.key !== 'Escape' || !event.currentTarget.open) return;
          event.preventDefault();
          event.currentTarget.open = false;
          event.currentTarget.querySelector('summary')?.focus();
        }}
      >
        <summary>Numbers</summary>
        {tableOpen && (
          // biome-ignore lint/a11y/noNoninteractiveTabindex: the days scroll inside their box, so the box takes focus for the keys to reach them (axe scrollable-region-focusable)
          <section className="chart__table" tabIndex={0} aria-label="Payments and volume per day">
            <table>
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
          </section>
        )}
      </details>
    </figure>
  );
});
