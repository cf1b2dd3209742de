import type { Summary } from '@payments/shared';
import { Link } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { errorMessage } from '../../../lib/api-error.ts';
import { formatCount } from '../fields/number-text.ts';
import { monthOf, undatedView, useNewestPayment } from '../list/newest-payment.ts';
import { type ListView, listViewQuery } from '../view/list-view.ts';
import { useSummary } from './get-summary.ts';

/** The first day the figures of a view at any date hold a payment on, or null when none is dated. */
function firstDay(summary: Summary): string | null {
  return summary.days.find((day) => day.count > 0)?.day ?? null;
}

/**
 * Under an empty period: where the view's data ends and where it begins, each as a link to its month, so a first
 * run or a stale bookmark is not a dead end. The end is its newest payment at any date (one row asked for), shown
 * at once; the beginning needs the whole view counted (the upstream lists newest first and filters from a date,
 * never up to one), so it comes from the figures of the view at any date — the same count as "All time", shared
 * and kept by the BFF — with how far that count is while it runs.
 */
export function DataSpanHint({ view }: { view: ListView }) {
  const newest = useNewestPayment(view);
  const whole = useSummary(undatedView(view), newest.data != null);
  const monthLink = (month: { dateFrom: string; dateTo: string }) =>
    `${paths.payments}${listViewQuery({ ...view, dateFrom: month.dateFrom, dateTo: month.dateTo })}`;
  if (newest.data === undefined) return null;
  if (newest.data === null)
    return (
      <p className="hint" data-testid="empty-period-hint">
        Nor does it at any other date: this view holds no payment.
      </p>
    );
  const month = monthOf(newest.data.created_at);
  if (month === null) return null;
  const summary = whole.data?.summary ?? null;
  const first = summary === null ? null : firstDay(summary);
  const firstMonth = first === null ? null : monthOf(`${first}T00:00:00`);
  return (
    <>
      <p className="hint" data-testid="empty-period-hint">
        Newest payment of this view: {month.day} — <Link to={monthLink(month)}>show that month</Link>
      </p>
      <p className="hint" data-testid="data-begins-hint">
        {whole.isError ? (
          `Where its payments begin is not known: ${errorMessage(whole.error)}`
        ) : summary === null ? (
          <>
            Finding where its payments begin…{' '}
            {/* not read out at every page the count reads: the panel is a live region */}
            <span aria-live="off">{formatCount(whole.data?.counted ?? 0)} counted</span>
          </>
        ) : firstMonth === null ? (
          'None of its payments has a date the dashboard can read.'
        ) : (
          <>
            {summary.complete ? 'Oldest payment' : 'Oldest payment counted'} of this view: {firstMonth.day}
            {summary.complete
              ? `, of ${formatCount(summary.count)} at any date`
              : ` (the count stopped at ${formatCount(summary.count)}; older ones may exist)`}{' '}
            — <Link to={monthLink(firstMonth)}>show its first month</Link>
          </>
        )}
      </p>
    </>
  );
}
