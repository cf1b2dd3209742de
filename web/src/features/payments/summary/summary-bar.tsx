import type { Summary } from '@payments/shared';
import { StatusBadge } from '../../../components/status-badge.tsx';
import { errorMessage, retryCanHelp } from '../../../lib/api-error.ts';
import { formatCount } from '../fields/number-text.ts';
import { shownAmount } from '../fields/shown-values.ts';
import type { ListView } from '../view/list-view.ts';
import { DailyChart } from './daily-chart.tsx';
import { useSummary } from './get-summary.ts';
import { SummaryPlaceholder } from './summary-placeholder.tsx';

interface Props {
  view: ListView;
  timeZone: string;
  /** Applies a status filter, or removes it (null). */
  onStatus: (status: string | null) => void;
}

function payments(count: number): string {
  return `${formatCount(count)} ${count === 1 ? 'payment' : 'payments'}`;
}

/**
 * What the view's filters select, counted by the BFF over every page: how many, how much per currency, how many
 * per status (each a way to filter by it), and per day. Loaded after the first rows, which do not need it.
 */
export default function SummaryBar({ view, timeZone, onStatus }: Props) {
  const query = useSummary(view);
  const summary = query.data?.summary ?? null;

  if (query.isError) {
    return (
      <section className="summary" aria-label="Summary">
        {/* polite: the list says the same at once where its own request failed too */}
        <div className="inline-error" role="status">
          <span>Could not count the payments: {errorMessage(query.error)}</span>
          {retryCanHelp(query.error) && (
            <button type="button" className="button" onClick={() => void query.refetch()}>
              Retry
            </button>
          )}
        </div>
      </section>
    );
  }
  if (summary === null) return <SummaryPlaceholder view={view} />;
  return (
    <section className="summary" aria-label="Summary">
      <div className="summary__figures">
        <div className="summary__line">
          <p role="status">
            <strong data-testid="summary-count">{payments(summary.count)}</strong>
            {!summary.complete && (
              <span className="summary__warning"> · not complete: the count stopped at its limit</span>
            )}
          </p>
          <ul className="summary__statuses" aria-label="Payments per status">
            {summary.by_status.map(({ status, count }) => (
              <li key={status ?? ''}>
                {status === null ? (
                  <span className="summary__status">
                    <span className="status-badge status-badge--other">no status</span> {formatCount(count)}
                  </span>
                ) : (
                  <button
                    type="button"
                    className="summary__status"
                    aria-pressed={view.status === status}
                    title={view.status === status ? 'Show every status' : `Show only ${status} payments`}
                    onClick={() => onStatus(view.status === status ? null : status)}
                  >
                    <StatusBadge status={status} /> {formatCount(count)}
                  </button>
                )}
              </li>
            ))}
          </ul>
        </div>
        <div className="summary__line">
          <Totals summary={summary} />
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
function Totals({ summary }: { summary: Summary }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: on a narrow screen the line scrolls sideways, and a scrolled region must take focus for the keys to reach what it hides (WCAG 2.1.1; axe scrollable-region-focusable)
    <ul className="summary__totals" aria-label="Totals per currency" tabIndex={0}>
      {summary.totals.map(({ currency, count, total }) => (
        <li key={currency}>
          <span className="summary__amount">{shownAmount(total, currency, 'major').text}</span>{' '}
          <span className="hint">
            in {formatCount(count)}
            <span className="visually-hidden"> {count === 1 ? 'payment' : 'payments'}</span>
          </span>
        </li>
      ))}
    </ul>
  );
}
