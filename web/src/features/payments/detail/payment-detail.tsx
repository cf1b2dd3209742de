import type { AppConfig } from '@payments/shared';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { errorMessage, retryCanHelp } from '../../../lib/api-error.ts';
import { companyNames, paymentCompanyId } from '../fields/company-names.ts';
import { requestRowFocus } from '../list/row-focus-request.ts';
import { useSearchRows } from '../list/search-cache.ts';
import { usePaymentRows } from '../list/use-payment-rows.ts';
import { useDisplayZone } from '../view/display-zone.ts';
import { DEFAULT_VIEW, type ListView, listViewQuery } from '../view/list-view.ts';
import { findPayment } from './find-payment.ts';
import PaymentDrawer from './payment-drawer.tsx';
import { type FoundPayment, PaymentLookup } from './payment-lookup.tsx';

/** How many rows a deep link pages through in its view before looking for its payment in every company. */
const SEARCH_STEP = 1000;

interface Props {
  /** The payment the address names. */
  paymentId: string;
  view: ListView;
  config: AppConfig;
}

/**
 * The drawer of the payment the address names (`/payments/<id>`), found among the view's rows (a search's
 * matches under a search), paging through the view for it up to SEARCH_STEP rows; one the view does not hold
 * there (or whose company the user may not see) is looked for in every company the user may see, and once found
 * the view switches to its company. A view that failed to load says so, with Retry. In the deferred chunk: drawn
 * only while a payment is open, and once closed (unmounted) it gives focus back to the row it showed.
 */
export function PaymentDetail({ paymentId, view, config }: Props) {
  // the company of the row that was opened (payments-table.tsx), where a row was
  const opened: unknown = (useLocation().state as { company?: unknown } | null)?.company;
  const company = typeof opened === 'string' ? opened : undefined;
  const navigate = useNavigate();
  const list = usePaymentRows(view, { watchOnly: true });
  // under a search, the payment opened is one of its matches
  const matches = useSearchRows(view);
  const { rows, companyIds } = view.q === null ? list : matches;
  const paymentIndex = useMemo(
    () => findPayment({ rows, companyIds }, paymentId, company),
    [rows, companyIds, paymentId, company],
  );
  const listed = rows[paymentIndex];

  // Found in every company: kept while the address names that payment, as the view switches to its company.
  const [found, setFound] = useState<(FoundPayment & { id: string }) | null>(null);
  const foundHere = found !== null && found.id === paymentId ? found : null;
  const payment = listed ?? foundHere?.row;
  // Not loaded yet: page through the view for it, as far as SEARCH_STEP rows, then look in every company.
  const inView = view.q === null && payment === undefined;
  const paging = inView && list.hasNextPage && list.rows.length < SEARCH_STEP && !list.isError;
  const { fetchNextPage, isFetching } = list;
  useEffect(() => {
    if (paging && !isFetching) fetchNextPage();
  }, [paging, isFetching, fetchNextPage]);
  // under a search, its matches are the view: a payment not among them yet may still come with them (a copied
  // link opens before the search has run), and only a search that ended without it is looked for further
  const searchingView =
    (inView && (list.awaitingRows || paging || list.isFetchingNextPage)) ||
    (view.q !== null && payment === undefined && matches.searching);
  // a view that could not load, where asking again may help: its failure, with Retry, rather than a walk of all
  const failed = inView && list.isError && retryCanHelp(list.error);
  const lookFurther = payment === undefined && !searchingView && !failed;
  const limit = view.limit;
  const onFound = useCallback(
    (payment: FoundPayment) => {
      setFound({ ...payment, id: paymentId });
      // the company's whole list: the filters of the view did not hold the payment
      const search = listViewQuery({ ...DEFAULT_VIEW, company: payment.company, limit });
      void navigate(
        { pathname: paths.payment(paymentId), search },
        { replace: true, state: { company: payment.company } },
      );
    },
    [paymentId, limit, navigate],
  );

  const search = listViewQuery(view);
  const close = useCallback(() => void navigate({ pathname: paths.payments, search }), [navigate, search]);

  // Once the drawer is gone, focus goes back to the row it showed (or the first row), never to the page start;
  // the table scrolls to it first when it is not drawn (a payment opened by a link, pages down).
  const shownIndex = useRef(paymentIndex);
  useEffect(() => {
    shownIndex.current = paymentIndex;
  }, [paymentIndex]);
  useEffect(() => () => requestRowFocus(Math.max(0, shownIndex.current)), []);

  // The payment before or after among the loaded rows, in the list's order; the address follows without a new
  // history entry per step, so Back still leaves the drawer.
  // Steps asked faster than the router shows them (j j j) add up: each starts where the one before aimed, for as
  // long as that one is on its way.
  const aimed = useRef<{ index: number; at: number } | null>(null);
  const step = (offset: -1 | 1) => {
    const row = rows[paymentIndex + offset];
    if (paymentIndex < 0 || row === undefined) return undefined;
    const href = `${paths.payment(String(row.id))}${search}`;
    const open = () => {
      const pending = aimed.current;
      const from =
        pending !== null && pending.index !== paymentIndex && performance.now() - pending.at < 1_000
          ? pending.index
          : paymentIndex;
      const target = rows[from + offset];
      if (target === undefined) return;
      aimed.current = { index: from + offset, at: performance.now() };
      void navigate(`${paths.payment(String(target.id))}${search}`, {
        replace: true,
        state: { company: companyIds[from + offset] },
      });
    };
    return { href, open };
  };

  const companyName = useMemo(() => companyNames(config.companies), [config.companies]);
  const { zone } = useDisplayZone(config.time_zone);
  const companyId = listed
    ? paymentCompanyId(listed, companyIds[paymentIndex], view.company ?? config.own_company_id)
    : foundHere?.company;
  return (
    <PaymentDrawer
      paymentId={paymentId}
      payment={payment}
      companyName={companyId && companyName(companyId)}
      status={
        searchingView ? (
          <p role="status">Looking for this payment in the current view…</p>
        ) : failed ? (
          <div role="alert" className="panel panel--error">
            <p>This payment could not be looked for: {errorMessage(list.error)}</p>
            <button type="button" className="button" onClick={list.retry}>
              Retry
            </button>
          </div>
        ) : lookFurther ? (
          <PaymentLookup paymentId={paymentId} companyName={companyName} onFound={onFound} />
        ) : foundHere ? (
          <p role="status" className="hint" data-testid="payment-found-in">
            Found in {companyName(foundHere.company)}: the list behind shows that company now.
          </p>
        ) : null
      }
      context={{ timeZone: zone, sourceZone: config.time_zone, amountUnit: config.amount_unit }}
      link={`${window.location.origin}${paths.payment(paymentId)}${search}`}
      position={listed === undefined ? null : { index: paymentIndex, loaded: rows.length }}
      previous={step(-1)}
      next={step(1)}
      onClose={close}
    />
  );
}
