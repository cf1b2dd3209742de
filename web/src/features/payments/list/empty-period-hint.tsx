import { Link } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { type ListView, listViewQuery } from '../view/list-view.ts';
import { monthOf, useNewestPayment } from './newest-payment.ts';

/**
 * Under an empty period: where the view's data ends, from its newest payment at any date (one row asked for), as
 * a link to that payment's month, so a first run or a stale bookmark is not a dead end.
 */
export function EmptyPeriodHint({ view }: { view: ListView }) {
  const newest = useNewestPayment(view, true);
  if (newest.data === undefined) return null;
  if (newest.data === null)
    return (
      <p className="hint" data-testid="empty-period-hint">
        Nor does it at any other date: this view holds no payment.
      </p>
    );
  const month = monthOf(newest.data.created_at);
  if (month === null) return null;
  return (
    <p className="hint" data-testid="empty-period-hint">
      Newest payment of this view: {month.day} —{' '}
      <Link
        to={`${paths.payments}${listViewQuery({ ...view, dateFrom: month.dateFrom, dateTo: month.dateTo })}`}
      >
        show that month
      </Link>
    </p>
  );
}
