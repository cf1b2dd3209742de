import { KNOWN_STATUSES } from '@payments/shared/rules';
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useMatch, useNavigate, useSearchParams } from 'react-router';
import { paths } from '../../config/paths.ts';
import { CompanySwitcher } from '../../features/companies/components/company-switcher.tsx';
import { companyNames, paymentCompanyId } from '../../features/payments/fields/company-names.ts';
import { PaymentsFilters } from '../../features/payments/filters/payments-filters.tsx';
import { usePayments } from '../../features/payments/list/get-payments.ts';
import { createRowMerger } from '../../features/payments/list/merge-rows.ts';
import { PaymentsTable } from '../../features/payments/list/payments-table.tsx';
import { RefreshButton } from '../../features/payments/list/refresh-button.tsx';
import { useCountedSummary } from '../../features/payments/summary/summary-cache.ts';
import { SummaryPlaceholder } from '../../features/payments/summary/summary-placeholder.tsx';
import {
  DEFAULT_VIEW,
  type ListView,
  listViewQuery,
  parseListView,
} from '../../features/payments/view/list-view.ts';
import { errorMessage, retryCanHelp } from '../../lib/api-error.ts';
import { useLayoutConfig } from './signed-in-layout.tsx';

// The figures with their chart, the export and the drawer are not part of the first view: their chunk is fetched
// while the first rows load (app/first-requests.ts starts the count with it).
const deferredParts = () => import('../../features/payments/deferred-parts.ts');
const SummaryBar = lazy(() => deferredParts().then((parts) => ({ default: parts.SummaryBar })));
const ExportButton = lazy(() => deferredParts().then((parts) => ({ default: parts.ExportButton })));
const PaymentDrawer = lazy(() => deferredParts().then((parts) => ({ default: parts.PaymentDrawer })));
const IgnoredParamsNotice = lazy(() =>
  deferredParts().then((parts) => ({ default: parts.IgnoredParamsNotice })),
);
const Freshness = lazy(() => deferredParts().then((parts) => ({ default: parts.Freshness })));
const KeyboardShortcuts = lazy(() => deferredParts().then((parts) => ({ default: parts.KeyboardShortcuts })));

/** How many rows a deep link may page through on its own looking for its payment, before asking the user. */
const SEARCH_STEP = 1000;

/** The list, its filters and the drawer: the URL is the state, this route turns it into a view. */
export function PaymentsRoute() {
  const config = useLayoutConfig();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const drawerMatch = useMatch(paths.paymentPattern);
  const paymentId = drawerMatch?.params.paymentId ?? null;
  const view = useMemo(() => parseListView(params), [params]);
  const search = listViewQuery(view);
  const [filtersOpen, setFiltersOpen] = useState(false);
  const activeFilters = [view.status, view.dateFrom, view.dateTo].filter((value) => value !== null).length;
  const context = useMemo(
    () => ({ timeZone: config.time_zone, amountUnit: config.amount_unit }),
    [config.time_zone, config.amount_unit],
  );

  const query = usePayments(view);
  // Appending a page merges only that page; another view's pages make the merger start over by itself.
  const [merge] = useState(createRowMerger);
  const {
    rows,
    companyIds,
    extraFields,
    statuses: seen,
  } = useMemo(() => merge(query.data?.pages ?? []), [merge, query.data?.pages]);
  const companyName = useMemo(() => companyNames(config.companies), [config.companies]);
  const counted = useCountedSummary(view);
  const total = useMemo(
    () => (counted === null ? null : { count: counted.count, complete: counted.complete }),
    [counted],
  );

  const statuses = useMemo(() => {
    const all = new Set<string>([...config.statuses, ...KNOWN_STATUSES, ...seen]);
    if (view.status) all.add(view.status);
    return [...all];
  }, [config.statuses, seen, view.status]);

  // Every filter change is a new history entry, so Back restores the previous view; it also closes the drawer.
  const setView = useCallback(
    (next: Partial<ListView>) =>
      navigate({ pathname: paths.payments, search: listViewQuery({ ...view, ...next }) }),
    [navigate, view],
  );

  // A deep-linked payment that is not loaded yet: page through the view for it, up to SEARCH_STEP rows at a time.
  const [searchLimit, setSearchLimit] = useState(SEARCH_STEP);
  const paymentIndex = useMemo(
    () => (paymentId === null ? -1 : rows.findIndex((row) => String(row.id) === paymentId)),
    [rows, paymentId],
  );
  const payment = rows[paymentIndex];
  const searching =
    paymentId !== null &&
    payment === undefined &&
    query.hasNextPage &&
    rows.length < searchLimit &&
    !query.isError;
  const { fetchNextPage, isFetching } = query;
  useEffect(() => {
    if (searching && !isFetching) void fetchNextPage();
  }, [searching, isFetching, fetchNextPage]);

  const closeDrawer = useCallback(() => navigate({ pathname: paths.payments, search }), [navigate, search]);

  // Once the drawer is gone, focus goes back to the row it showed (or the first row), never to the page start.
  const shownId = useRef<string | null>(null);
  useEffect(() => {
    if (paymentId !== null) {
      shownId.current = paymentId;
      return;
    }
    const id = shownId.current;
    shownId.current = null;
    if (id === null) return;
    const link = document.querySelector<HTMLElement>(`[data-row-id="${CSS.escape(id)}"] a`);
    (link ?? document.querySelector<HTMLElement>('[data-row-link]'))?.focus();
  }, [paymentId]);

  const list = {
    isPending: query.isPending,
    isError: query.isError,
    error: query.error,
    isFetchNextPageError: query.isFetchNextPageError,
    hasNextPage: query.hasNextPage,
    isFetchingNextPage: query.isFetchingNextPage,
    fetchNextPage: useCallback(() => void fetchNextPage(), [fetchNextPage]),
    retryFirstPage: useCallback(() => void query.refetch(), [query.refetch]),
  };

  return (
    <main id="main" className="page">
      <Suspense fallback={null}>
        <KeyboardShortcuts />
        <IgnoredParamsNotice params={params} />
      </Suspense>
      <div className={`toolbar${filtersOpen ? ' toolbar--filters-open' : ''}`}>
        <CompanySwitcher
          companies={config.companies}
          value={{ company: view.company ?? config.own_company_id, group: view.group }}
          // a group is always named: the URL then says which head it is, whoever opens it
          onSelect={(selection) => setView(selection)}
        />
        {/* small screens only (app.css): the filters fold into a panel behind this button */}
        <button
          type="button"
          className="button filters-toggle"
          aria-expanded={filtersOpen}
          onClick={() => setFiltersOpen(!filtersOpen)}
        >
          Filters{activeFilters > 0 && ` (${activeFilters})`}
        </button>
        <PaymentsFilters
          view={view}
          statuses={statuses}
          pageSizes={config.page_sizes}
          timeZone={config.time_zone}
          onChange={setView}
          onClear={() => setView({ status: null, dateFrom: null, dateTo: null, limit: DEFAULT_VIEW.limit })}
        />
        <div className="toolbar__end">
          {/* room for "Updated 10:42" from the start: its arrival does not rewrap the toolbar */}
          <span className="freshness-slot">
            <Suspense fallback={null}>
              <Freshness
                view={view}
                pollSeconds={config.freshness_poll_seconds}
                timeZone={config.time_zone}
              />
            </Suspense>
          </span>
          <RefreshButton view={view} />
          {/* the export's controls as they will be, disabled until their code arrives: nothing moves then */}
          <Suspense
            fallback={
              <div className="export">
                <button type="button" className="button" disabled>
                  Export CSV
                </button>
                <label className="export__columns">
                  <input type="checkbox" disabled /> All columns
                </label>
              </div>
            }
          >
            <ExportButton view={view} />
          </Suspense>
        </div>
      </div>
      <PaymentsTable
        rows={rows}
        companyIds={companyIds}
        group={view.group}
        companyName={companyName}
        total={total}
        summary={
          // the same placeholder as the bar's own while it counts: its code arriving changes nothing on screen
          <Suspense fallback={<SummaryPlaceholder view={view} />}>
            <SummaryBar view={view} timeZone={config.time_zone} onStatus={(status) => setView({ status })} />
          </Suspense>
        }
        extraFields={extraFields}
        statuses={seen}
        context={context}
        search={search}
        limit={view.limit}
        list={list}
        hasFilters={view.status !== null || view.dateFrom !== null || view.dateTo !== null}
        onClearFilters={() => setView({ status: null, dateFrom: null, dateTo: null })}
      />
      {paymentId !== null && (
        <Suspense fallback={null}>
          <PaymentDrawer
            paymentId={paymentId}
            payment={payment}
            companyName={
              payment &&
              companyName(
                paymentCompanyId(payment, companyIds[paymentIndex], view.company ?? config.own_company_id),
              )
            }
            searching={searching || (query.isFetching && payment === undefined)}
            searched={rows.length}
            canSearchFurther={query.hasNextPage}
            onSearchFurther={() => setSearchLimit(rows.length + SEARCH_STEP)}
            failure={payment === undefined && query.isError ? errorMessage(query.error) : null}
            onRetry={
              !retryCanHelp(query.error)
                ? undefined
                : query.isFetchNextPageError
                  ? list.fetchNextPage
                  : list.retryFirstPage
            }
            context={context}
            onClose={closeDrawer}
          />
        </Suspense>
      )}
    </main>
  );
}
