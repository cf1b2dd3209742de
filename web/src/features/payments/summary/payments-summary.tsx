import { Suspense } from 'react';
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
  return (
    // the same placeholder as the bar's own while it counts: its code arriving changes nothing on screen
    <Suspense fallback={<SummaryPlaceholder view={view} />}>
      <SummaryBar view={view} timeZone={timeZone} settledStatuses={settledStatuses} />
    </Suspense>
  );
}
