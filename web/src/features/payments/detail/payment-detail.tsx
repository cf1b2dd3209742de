import type { AppConfig } from '@payments/shared';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { paths } from '../../../config/paths.ts';
import { errorMessage, retryCanHelp } from '../../../lib/api-error.ts';
import { useLocation, useNavigate } from '../../../lib/history-router.tsx';
import { companyNames, paymentCompanyId } from '../fields/company-names.ts';
import { requestRowFocus } from '../list/row-focus-request.ts';
import { usePaymentRows } from '../list/use-payment-rows.ts';
import { type ListView, listViewQuery } from '../view/list-view.ts';
import { findPayment } from './find-payment.ts';
import PaymentDrawer from './payment-drawer.tsx';

/** How many rows a deep link may page through on its own looking for its payment, before asking the user. */
const SEARCH_STEP = 1000;

interface Props {
  /** The payment the address names. */
  paymentId: string;
  view: ListView;
  config: AppConfig;
}

/**
 * The drawer of the payment the address names (`/payments/<id>`), found among the view's rows: one not loaded
 * yet is looked for page by page. In the deferred chunk: drawn only while a payment is open, and once closed
 * (unmounted) it gives focus back to the row it showed.
 */
export function PaymentDetail({ paymentId, view, config }: Props) {
  // the company of the row that was opened (payments-table.tsx), where a row was
  const opened: unknown = (useLocation().state as { company?: unknown } | null)?.company;
  const company = typeof opened === 'string' ? opened : undefined;
  const navigate = useNavigate();
  const list = usePaymentRows(view, { watchOnly: true });
  const { rows, companyIds, fetchNextPage, isFetching } = list;

  // A deep-linked payment that is not loaded yet: page through the view for it, up to SEARCH_STEP rows at a time.
  const [searchLimit, setSearchLimit] = useState(SEARCH_STEP);
  const paymentIndex = useMemo(
    () => findPayment({ rows, companyIds }, paymentId, company),
    [rows, companyIds, paymentId, company],
  );
  const payment = rows[paymentIndex];
  const searching = payment === undefined && list.hasNextPage && rows.length < searchLimit && !list.isError;
  useEffect(() => {
    if (searching && !isFetching) fetchNextPage();
  }, [searching, isFetching, fetchNextPage]);

  const search = listViewQuery(view);
  const close = useCallback(() => navigate({ pathname: paths.payments, search }), [navigate, search]);

  // Once the drawer is gone, focus goes back to the row it showed (or the first row), never to the page start;
  // the table scrolls to it first when it is not drawn (a payment opened by a link, pages down).
  const shownIndex = useRef(paymentIndex);
  useEffect(() => {
    shownIndex.current = paymentIndex;
  }, [paymentIndex]);
  useEffect(() => () => requestRowFocus(Math.max(0, shownIndex.current)), []);

  // The payment before or after among the loaded rows, in the list's order; the address follows without a new
  // history entry per step, so Back still leaves the drawer.
  const step = (offset: -1 | 1) => {
    const row = rows[paymentIndex + offset];
    if (paymentIndex < 0 || row === undefined) return undefined;
    return () =>
      navigate(
        { pathname: paths.payment(String(row.id)), search },
        { replace: true, state: { company: companyIds[paymentIndex + offset] } },
      );
  };

  const companyName = useMemo(() => companyNames(config.companies), [config.companies]);
  return (
    <PaymentDrawer
      paymentId={paymentId}
      payment={payment}
      companyName={
        payment &&
        companyName(
          paymentCompanyId(payment, companyIds[paymentIndex], view.company ?? config.own_company_id),
        )
      }
      searching={searching || (isFetching && payment === undefined)}
      searched={rows.length}
      canSearchFurther={list.hasNextPage}
      onSearchFurther={() => setSearchLimit(rows.length + SEARCH_STEP)}
      failure={payment === undefined && list.isError ? errorMessage(list.error) : null}
      onRetry={retryCanHelp(list.error) ? list.retry : undefined}
      context={{ timeZone: config.time_zone, amountUnit: config.amount_unit }}
      link={`${window.location.origin}${paths.payment(paymentId)}${search}`}
      position={payment === undefined ? null : { index: paymentIndex, loaded: rows.length }}
      onPrevious={step(-1)}
      onNext={step(1)}
      onClose={close}
    />
  );
}
