import { useQueryClient } from '@tanstack/react-query';
import { Suspense } from 'react';
import { appConfigQueryOptions } from '../../../lib/app-config.ts';
import { deferredPart } from '../load-deferred-parts.ts';
import type { ListView } from '../view/list-view.ts';
import { SummaryPlaceholder } from './summary-placeholder.tsx';

// The figures with their chart are not part of the first view: their code comes with the deferred chunk, which
// the list route's loader asks for while the first rows load.
const SummaryBar = deferredPart('SummaryBar');

interface Props {
  view: ListView;
  timeZone: string;
  /** The statuses whose totals stand apart as settled ("Completed"). */
  settledStatuses: readonly string[] | undefined;
}

/** The view's figures; a status among them is a link to the list of that status. */
export function PaymentsSummary({ view, timeZone, settledStatuses }: Props) {
  // The config the page was drawn from, already loaded: the names of a group's companies.
  const config = useQueryClient().getQueryData(appConfigQueryOptions.queryKey);
  const companyNames = new Map(config?.companies.map((company) => [company.id, company.name]));
  return (
    // the same placeholder as the bar's own while it counts: its code arriving changes nothing on screen
    <Suspense fallback={<SummaryPlaceholder view={view} />}>
      <SummaryBar
        view={view}
        timeZone={timeZone}
        settledStatuses={settledStatuses}
        companyNames={companyNames}
      />
    </Suspense>
  );
}
