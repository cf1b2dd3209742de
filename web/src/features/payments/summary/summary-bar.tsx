import type { Summary } from '@payments/shared';
import { useState } from 'react';
import { Link } from 'react-router';
import { StatusBadge } from '../../../components/status-badge.tsx';
import { paths } from '../../../config/paths.ts';
import { errorMessage, isApiError, retryCanHelp } from '../../../lib/api-error.ts';
import { settledLabel, timeOfDay } from '../fields/figures-provenance.ts';
import { formatCount } from '../fields/number-text.ts';
import { shownAmount } from '../fields/shown-values.ts';
import { useDisplayZone } from '../view/display-zone.ts';
import { type ListView, listViewQuery, rangeInverted } from '../view/list-view.ts';
import { rangeText } from '../view/range-text.ts';
import { DailyChart } from './daily-chart.tsx';
import { useSummary } from './get-summary.ts';
import { SummaryPlaceholder } from './summary-placeholder.tsx';

interface Props {
  view: ListView;
  /** The company's zone, whose days the chart counts. */
  timeZone: string;
  /** The statuses whose totals stand apart as settled (config.settled_statuses). */
  settledStatuses: readonly string[] | undefined;
  /** Company names by id, for a group's lines per company; an id stands for a company not named. */
  companyNames?: ReadonlyMap<string, string>;
}

function payments(count: number): string {
  return `${formatCount(count)} ${count === 1 ? 'payment' : 'payments'}`;
}

/** Whether the view shows that status alone: its link then shows every status again. */
function only(view: ListView, status: string): boolean {
  return view.statuses.length === 1 && view.statuses[0] === status;
}

/**
 * What the view's filters select, counted by the BFF over every page: how many and since when, how much per
 * currency (of every status, and of the settled ones apart), how many per status (each a link to the list of that status),
 * and per day. Counted again, the figures on screen stay until the new ones arrive. Loaded after the first rows.
 */
export default function SummaryBar({ view, timeZone, settledStatuses, companyNames }: Props) {
  const query = useSummary(view);
  // The money per status and per company: asked for, so the figures keep their height when they arrive.
  const [breakdown, setBreakdown] = useState(false);
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
  const statusesLabel = view.statuses.length === 0 ? null : view.statuses.join(', ');
  // the period counted, in the zone it counts in (named where times are shown in another)
  const period = rangeText(view.dateFrom, view.dateTo, timeZone, zone);
  const settled =
    view.statuses.length === 0 && settledStatuses && summary.settled && settledLabel(settledStatuses);
  return (
    <section className="summary" aria-label="Summary" aria-busy={recounting}>
      <div className="summary__figures">
        <div className="summary__line">
          <p role="status">
            <strong data-testid="summary-count">{payments(summary.count)}</strong>
            {period !== null && (
              <span className="hint" data-testid="summary-period">
                {' '}
                in {period}
              </span>
            )}
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
                    aria-current={view.statuses.includes(status) ? 'true' : undefined}
                    title={only(view, status) ? 'Show every status' : `Show only ${status} payments`}
                    to={`${paths.payments}${listViewQuery({ ...view, statuses: only(view, status) ? [] : [status] })}`}
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
            label={statusesLabel ?? 'All statuses'}
            name={`Totals per currency, ${statusesLabel ?? 'all statuses'}`}
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
      {/* a line as tall as the placeholder's, under the figures and the chart: the rows below stay where they
          were drawn; what it opens is asked for */}
      <div className="summary__breakdown-line">
        <button
          type="button"
          className="button summary__breakdown-toggle"
          aria-expanded={breakdown}
          onClick={() => setBreakdown(!breakdown)}
        >
          {view.group ? 'Per status and company' : 'Per status'}
        </button>
        {breakdown && (
          <div className="summary__breakdown" data-testid="summary-breakdown">
            {/* every status's money apart */}
            {summary.by_status_totals?.map(({ status, totals }) => (
              <Totals
                key={status ?? ''}
                label={status ?? 'no status'}
                name={`Totals per currency, ${status ?? 'no status'}`}
                totals={totals}
                testId={`summary-status-totals-${status ?? ''}`}
              />
            ))}
            {view.group && summary.companies && (
              <CompanyFigures view={view} companies={summary.companies} names={companyNames} />
            )}
          </div>
        )}
      </div>
    </section>
  );
}

/**
 * A group's figures per company, counted in the same walk as the group's: each company's payments and totals per
 * currency (they add up to the group's), its name a link to its own view with the same filters.
 */
function CompanyFigures({
  view,
  companies,
  names,
}: {
  view: ListView;
  companies: NonNullable<Summary['companies']>;
  names: ReadonlyMap<string, string> | undefined;
}) {
  return (
    <table className="summary__companies" aria-label="Figures per company" data-testid="summary-companies">
      <thead>
        <tr>
          <th scope="col">Company</th>
          <th scope="col">Payments</th>
          <th scope="col">Totals</th>
        </tr>
      </thead>
      <tbody>
        {companies.map((company) => (
          <tr key={company.company_id} data-company-id={company.company_id}>
            <th scope="row">
              <Link
                to={`${paths.payments}${listViewQuery({ ...view, company: company.company_id, group: false })}`}
              >
                {names?.get(company.company_id) ?? company.company_id}
              </Link>
            </th>
            <td className="summary__amount">{formatCount(company.count)}</td>
            <td>
              <ul
                className="summary__totals"
                aria-label={`Totals per currency, ${names?.get(company.company_id) ?? company.company_id}`}
              >
                {company.totals.length === 0 && <li className="hint">none</li>}
                {company.totals.map(({ currency, total }) => (
                  <li key={currency} className="summary__amount" data-currency={currency} data-total={total}>
                    {shownAmount(total, currency, 'major').text}
                  </li>
                ))}
              </ul>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
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
