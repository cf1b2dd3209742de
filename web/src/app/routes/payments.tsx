import { useState } from 'react';
import { Outlet, useParams } from 'react-router';
import { useSession } from '../../features/auth/api/get-session.ts';
import { PaymentsList } from '../../features/payments/list/payments-list.tsx';
import { SearchMatches } from '../../features/payments/search/search-matches.tsx';
import { PaymentsSummary } from '../../features/payments/summary/payments-summary.tsx';
import { usePaymentsView } from '../../features/payments/view/use-payments-view.ts';
import { useDocumentTitle } from '../../lib/page-title.ts';
import { paymentsTitle } from './payments-title.ts';
import { PaymentsToolbar } from './payments-toolbar.tsx';
import { useLayoutConfig } from './signed-in-layout.tsx';

/**
 * The list (or the matches of a search), its toolbar and, in its outlet, the child route's drawer of a payment.
 * The URL is the state (usePaymentsView); the summary, the export and the drawer load after the first rows
 * (features/payments/deferred-parts.ts), a search's results when one is made.
 */
export function PaymentsRoute() {
  const config = useLayoutConfig();
  const { view, setView, hrefOf } = usePaymentsView();
  useDocumentTitle(paymentsTitle(view, config, useParams().paymentId));
  const username = useSession().data?.username ?? '';
  // the line below the toolbar, where messages go that must not move or cover the toolbar (the export's status)
  const [messages, setMessages] = useState<HTMLElement | null>(null);
  const summary = (
    <PaymentsSummary view={view} timeZone={config.time_zone} settledStatuses={config.settled_statuses} />
  );
  const Rows = view.q === null ? PaymentsList : SearchMatches;
  return (
    <main id="main" className="page">
      <div className="page__top">
        <PaymentsToolbar view={view} config={config} setView={setView} hrefOf={hrefOf} messages={messages} />
        <div className="page__messages" ref={setMessages} />
      </div>
      <Rows view={view} username={username} config={config} summary={summary} onChange={setView} />
      <Outlet context={{ view, config }} />
    </main>
  );
}
