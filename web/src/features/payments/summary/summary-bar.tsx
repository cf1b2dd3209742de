import type { Summary } from '@payments/shared';
import { Link } from 'react-router';
import { StatusBadge } from '../../../components/status-badge.tsx';
import { paths } from '../../../config/paths.ts';
import { errorMessage, isApiError, retryCanHelp } from '../../../lib/api-error.ts';
import { settledLabel, timeOfDay } from '../fields/figures-provenance.ts';
import { formatCount } from '../fields/number-text.ts';
import { shownAmount } from '../fields/shown-values.ts';
import { useDisplayZone } from '../view/display-zone.ts';
import { type ListView, listViewQuery, rangeInverted } from '../view/list-view.ts';
import { DailyChart } from './daily-chart.tsx';
import { useSummary } from './get-summary.ts';
import { SummaryPlaceholder } from './summary-placeholder.tsx';

interface Props {
  view: ListView;
  /** The company's zone, whose days the chart counts. */
  timeZone: string;
  /** The statuses whose totals stand apart as settled (config.settled_statuses). */
  settledStatuses: readonly string[] | undefined;
}

function payments(count: number): string {
  return `${formatCount(count)} ${count === 1 ? 'payment' : 'payments'}`;
}

/**
 * What the view's filters select, counted by the BFF over every page: how many and since when, how much per
 * currency (of every status, and of the settled ones apart), how many per status (each a link to the list of that status),
 * and per day. Counted again, the figures on screen stay until the new ones arrive. Loaded after the first rows.
 */
export default function SummaryBar({ view, timeZone, settledStatuses }: Props) {
  const query = useSummary(view);
  const { zone } = useDisplayZone(timeZone);
  const summary = query.data?.summary ?? null;
  const failure = query.isError && (
    <div className="inline-error" role="status">
      <span>
        Could not count {summary === null ? 'the payments' : 'again'}: {errorMessage(query.error)}
      </span>
      {retryCanHelp(query.error) && (
        <button type="button" className="button" onClick={() => void query.refetch()}>
          Retry
        </button>
      )}
    </div>
  );

  // a company the user may not see, or a range that ends before it starts: said once, by the list or the field
  if (rangeInverted(view) || (isApiError(query.error) && query.error.code === 'forbidden_company'))
    return null;
  // polite: the list says the same at once where its own request failed too
  if (query.isError && summary === null)
    return (
      <section className="summary" aria-label="Summary">
        {failure}
      </section>
    );
  if (summary === null) return <SummaryPlaceholder view={view} />;
  const recounting = query.fetchStatus === 'fetching';
  const asOf = timeOfDay(summary.as_of, zone);
  const settled = view.status === null && settledStatuses && summary.settled && settledLabel(settledStatuses);
  return (
    <section className="summary" aria-label="Summary" aria-busy={recounting}>
      <div className="summary__figures">
        <div className="summary__line">
          <p role="status">
            <strong data-testid="summary-count">{payments(summary.count)}</strong>
            {asOf !== null && (
              <span className="hint" data-testid="summary-as-of">
                {' '}
                as of {asOf}
              </span>
            )}
            {!summary.complete && (
              <span className="summary__warning"> · not complete: the count stopped at its limit</span>
            )}
          </p>
          {recounting && (
            <span className="summary__recount hint" data-testid="summary-recount">
              <span className="spinner" aria-hidden="true" /> counting again…{' '}
              {formatCount(query.data?.counted ?? 0)}
            </span>
          )}
          {failure}
          <ul className="summary__statuses" aria-label="Payments per status">
            {summary.by_status.map(({ status, count }) => (
              <li key={status ?? ''}>
                {status === null ? (
                  <span className="summary__status">
                    <span className="status-badge status-badge--other">no status</span> {formatCount(count)}
                  </span>
                ) : (
                  // a link: opened in a new tab or copied, it is the list of that status
                  <Link
                    className="summary__status"
                    aria-current={view.status === status ? 'true' : undefined}
                    title={view.status === status ? 'Show every status' : `Show only ${status} payments`}
                    to={`${paths.payments}${listViewQuery({ ...view, status: view.status === status ? null : status })}`}
                  >
                    <StatusBadge status={status} /> {formatCount(count)}
                  </Link>
                )}
              </li>
            ))}
          </ul>
        </div>
        <div className="summary__line">
          <Totals
            label={view.status ?? 'All statuses'}
            name={`Totals per currency, ${view.status ?? 'all statuses'}`}
            totals={summary.totals}
            testId="summary-totals"
          />
          {settled && summary.settled && (
            <Totals
              label={settled}
              name={`${settled}, per currency`}
              totals={summary.settled}
              testId="summary-settled"
            />
          )}
          {summary.uninterpreted > 0 && (
            <p className="hint" data-testid="summary-uninterpreted">
              {payments(summary.uninterpreted)} with an amount that cannot be read as money: not in the
              totals.
            </p>
          )}
        </div>
      </div>
      <DailyChart summary={summary} dateFrom={view.dateFrom} dateTo={view.dateTo} timeZone={timeZone} />
    </section>
  );
}

/** Totals per currency, formatted from the exact decimal strings, each with how many payments it sums. */
function Totals({
  label,
  name,
  totals,
  testId,
}: {
  label: string;
  name: string;
  totals: Summary['totals'];
  testId: string;
}) {
  return (
    <div className="summary__total-group" data-testid={testId}>
      <span className="summary__totals-label">{label}:</span>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: on a narrow screen the line scrolls sideways, and a scrolled region must take focus for the keys to reach what it hides (WCAG 2.1.1; axe scrollable-region-focusable) */}
      <ul className="summary__totals" aria-label={name} tabIndex={0}>
        {totals.length === 0 && <li className="hint">none</li>}
        {totals.map(({ currency, count, total }) => (
          <li key={currency}>
            <span className="summary__amount">{shownAmount(total, currency, 'major').text}</span>{' '}
            <span className="hint">
              in {formatCount(count)}
              <span className="visually-hidden"> {count === 1 ? 'payment' : 'payments'}</span>
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
