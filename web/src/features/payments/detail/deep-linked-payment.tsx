import type { AppConfig } from '@payments/shared';
import { Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useLocation, useMatch, useNavigate } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { companyNames, paymentCompanyId } from '../fields/company-names.ts';
import { usePaymentRows } from '../list/use-payment-rows.ts';
import { deferredPart } from '../load-deferred-parts.ts';
import { useSearchRows } from '../search/search-cache.ts';
import { useDisplayZone } from '../view/display-zone.ts';
import { DEFAULT_VIEW, type ListView, listViewQuery } from '../view/list-view.ts';
import { findPayment } from './find-payment.ts';
import type { FoundPayment } from './payment-lookup.tsx';

const PaymentDrawer = deferredPart('PaymentDrawer');
const PaymentLookup = deferredPart('PaymentLookup');

/**
 * The drawer of the payment the address names (`/payments/<id>`), found among the view's rows; one the view does
 * not hold once its first rows are in (or that it cannot load) is looked for in every company the user may see,
 * and once found the view switches to its company. Closed, it gives focus back to the row it showed.
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
  const paymentIndex = useMemo(
    () => (paymentId === null ? -1 : findPayment({ rows, companyIds }, paymentId, company)),
    [rows, companyIds, paymentId, company],
  );
  const listed = rows[paymentIndex];

  // Found in every company: kept while the address names that payment, as the view switches to its company.
  const [found, setFound] = useState<(FoundPayment & { id: string }) | null>(null);
  const foundHere = found !== null && found.id === paymentId ? found : null;
  const payment = listed ?? foundHere?.row;
  const lookFurther = paymentId !== null && payment === undefined && (view.q !== null || !list.awaitingRows);
  const limit = view.limit;
  const onFound = useCallback(
    (payment: FoundPayment) => {
      if (paymentId === null) return;
      setFound({ ...payment, id: paymentId });
      // the company's whole list: the filters of the view did not hold the payment
      const search = listViewQuery({ ...DEFAULT_VIEW, company: payment.company, limit });
      navigate(
        { pathname: paths.payment(paymentId), search },
        { replace: true, state: { company: payment.company } },
      );
    },
    [paymentId, limit, navigate],
  );

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
    setFound(null);
    if (row === null) return;
    (
      document.querySelector<HTMLElement>(row) ?? document.querySelector<HTMLElement>('[data-row-link]')
    )?.focus();
  }, [paymentId, shownCompany]);

  const companyName = useMemo(() => companyNames(config.companies), [config.companies]);
  const { zone } = useDisplayZone(config.time_zone);
  if (paymentId === null) return null;
  const companyId = listed
    ? paymentCompanyId(listed, companyIds[paymentIndex], view.company ?? config.own_company_id)
    : foundHere?.company;
  return (
    <Suspense fallback={null}>
      <PaymentDrawer
        paymentId={paymentId}
        payment={payment}
        companyName={companyId && companyName(companyId)}
        status={
          lookFurther ? (
            <PaymentLookup paymentId={paymentId} companyName={companyName} onFound={onFound} />
          ) : foundHere ? (
            <p role="status" className="hint" data-testid="payment-found-in">
              Found in {companyName(foundHere.company)}: the list behind shows that company now.
            </p>
          ) : null
        }
        context={{ timeZone: zone, amountUnit: config.amount_unit }}
        onClose={close}
      />
    </Suspense>
  );
}
