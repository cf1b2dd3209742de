import type { AppConfig } from '@payments/shared';
import { Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useLocation, useMatch, useNavigate } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { errorMessage, retryCanHelp } from '../../../lib/api-error.ts';
import { companyNames, paymentCompanyId } from '../fields/company-names.ts';
import { usePaymentRows } from '../list/use-payment-rows.ts';
import { deferredPart } from '../load-deferred-parts.ts';
import { useSearchRows } from '../search/search-cache.ts';
import { type ListView, listViewQuery } from '../view/list-view.ts';
import { findPayment } from './find-payment.ts';

const PaymentDrawer = deferredPart('PaymentDrawer');

/** How many rows a deep link may page through on its own looking for its payment, before asking the user. */
const SEARCH_STEP = 1000;

/**
 * The drawer of the payment the address names (`/payments/<id>`), found among the view's rows: one not loaded
 * yet is looked for page by page. Closed, it gives focus back to the row it showed.
 */
export function DeepLinkedPayment({ view, config }: { view: ListView; config: AppConfig }) {
  const paymentId = useMatch(paths.paymentPattern)?.params.paymentId ?? null;
  // the company of the row that was opened (payments-table.tsx), where a row was
  const opened: unknown = (useLocation().state as { company?: unknown } | null)?.company;
  const company = typeof opened === 'string' ? opened : undefined;
  const navigate = useNavigate();
  const list = usePaymentRows(view, { watchOnly: true });
  // under a search, the payment opened is one of its matches
  const matches = useSearchRows(view);
  const { rows, companyIds } = view.q === null ? list : matches;
  const { fetchNextPage, isFetching } = list;

  // A deep-linked payment that is not loaded yet: page through the view for it, up to SEARCH_STEP rows at a time.
  const [searchLimit, setSearchLimit] = useState(SEARCH_STEP);
  const paymentIndex = useMemo(
    () => (paymentId === null ? -1 : findPayment({ rows, companyIds }, paymentId, company)),
    [rows, companyIds, paymentId, company],
  );
  const payment = rows[paymentIndex];
  const searching =
    paymentId !== null &&
    payment === undefined &&
    list.hasNextPage &&
    rows.length < searchLimit &&
    !list.isError;
  useEffect(() => {
    if (searching && !isFetching) fetchNextPage();
  }, [searching, isFetching, fetchNextPage]);

  const search = listViewQuery(view);
  const close = useCallback(() => navigate({ pathname: paths.payments, search }), [navigate, search]);

  // Once the drawer is gone, focus goes back to the row it showed (or the first row), never to the page start.
  const shownRow = useRef<string | null>(null);
  const shownCompany = companyIds[paymentIndex];
  useEffect(() => {
    if (paymentId !== null) {
      const ofCompany = shownCompany === undefined ? '' : `[data-company-id="${CSS.escape(shownCompany)}"]`;
      shownRow.current = `[data-row-id="${CSS.escape(paymentId)}"]${ofCompany} a`;
      return;
    }
    const row = shownRow.current;
    shownRow.current = null;
    if (row === null) return;
    (
      document.querySelector<HTMLElement>(row) ?? document.querySelector<HTMLElement>('[data-row-link]')
    )?.focus();
  }, [paymentId, shownCompany]);

  const companyName = useMemo(() => companyNames(config.companies), [config.companies]);
  if (paymentId === null) return null;
  return (
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
        searching={searching || (isFetching && payment === undefined)}
        searched={rows.length}
        canSearchFurther={list.hasNextPage}
        onSearchFurther={() => setSearchLimit(rows.length + SEARCH_STEP)}
        failure={payment === undefined && list.isError ? errorMessage(list.error) : null}
        onRetry={retryCanHelp(list.error) ? list.retry : undefined}
        context={{ timeZone: config.time_zone, amountUnit: config.amount_unit }}
        onClose={close}
      />
    </Suspense>
  );
}
