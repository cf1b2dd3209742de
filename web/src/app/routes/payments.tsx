import { useState } from 'react';
import { useSession } from '../../features/auth/api/get-session.ts';
import { CompanySwitcher } from '../../features/companies/components/company-switcher.tsx';
import { DeepLinkedPayment } from '../../features/payments/detail/deep-linked-payment.tsx';
import { ExportControls } from '../../features/payments/export/export-controls.tsx';
import { ZoneControl } from '../../features/payments/fields/zone-control.tsx';
import { FiltersToolbar } from '../../features/payments/filters/filters-toolbar.tsx';
import { FreshnessControls } from '../../features/payments/list/freshness-controls.tsx';
import { PaymentsList } from '../../features/payments/list/payments-list.tsx';
import { SearchBox } from '../../features/payments/search/search-box.tsx';
import { SearchMatches } from '../../features/payments/search/search-matches.tsx';
import { PaymentsSummary } from '../../features/payments/summary/payments-summary.tsx';
import { companyUnseen, rangeInverted } from '../../features/payments/view/list-view.ts';
import { usePaymentsView } from '../../features/payments/view/use-payments-view.ts';
import { useLayoutConfig } from './signed-in-layout.tsx';

/**
 * The list (or the matches of a search), its filters and the drawer of a payment. The URL is the state
 * (usePaymentsView); the summary, the export and the drawer load after the first rows
 * (features/payments/deferred-parts.ts), a search's results when one is made.
 */
export function PaymentsRoute() {
  const config = useLayoutConfig();
  const { view, setView } = usePaymentsView();
  const username = useSession().data?.username ?? '';
  // the line below the toolbar, where messages go that must not move or cover the toolbar (the export's status)
  const [messages, setMessages] = useState<HTMLElement | null>(null);
  const summary = (
    <PaymentsSummary
      view={view}
      timeZone={config.time_zone}
      settledStatuses={config.settled_statuses}
      onChange={setView}
    />
  );
  return (
    <main id="main" className="page">
      <div className="page__top">
        <FiltersToolbar
          view={view}
          config={config}
          onChange={setView}
          switcher={
            <CompanySwitcher
              companies={config.companies}
              value={{ company: view.company ?? config.own_company_id, group: view.group }}
              // a group is always named: the URL then says which head it is, whoever opens it
              onSelect={setView}
            />
          }
          search={<SearchBox view={view} onChange={setView} />}
        >
          <ZoneControl companyZone={config.time_zone} />
          <FreshnessControls view={view} config={config} />
          <ExportControls
            view={view}
            statusSlot={messages}
            timeZone={config.time_zone}
            // nothing to write for a company the user may not see, or a range that ends before it starts
            disabled={companyUnseen(view, config.companies) || rangeInverted(view)}
          />
        </FiltersToolbar>
        <div className="page__messages" ref={setMessages} />
      </div>
      {view.q === null ? (
        <PaymentsList view={view} username={username} config={config} summary={summary} onChange={setView} />
      ) : (
        <SearchMatches view={view} username={username} config={config} summary={summary} onChange={setView} />
      )}
      <DeepLinkedPayment view={view} config={config} />
    </main>
  );
}
