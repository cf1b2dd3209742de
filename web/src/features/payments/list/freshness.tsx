import { wallClockIn } from '@payments/shared/date-time';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { timeOfDay } from '../fields/figures-provenance.ts';
import { formatCount } from '../fields/number-text.ts';
import { useDisplayZone } from '../view/display-zone.ts';
import type { ListView } from '../view/list-view.ts';
import { useNewerPayments } from './newer-payments.ts';
import { refreshView } from './refresh-view.ts';
import { usePaymentRows } from './use-payment-rows.ts';

interface Props {
  view: ListView;
  pollSeconds: number;
  timeZone: string;
}

/**
 * "Updated 10:42", and "3 new payments: show" once newer ones arrived, an empty view's first ones included;
 * showing them starts the list over and counts the figures again, neither blanking (refreshView). A sorted view
 * is a snapshot the BFF sorted: it says how old ("Sorted as of 10:42") and polls nothing (Refresh sorts again).
 */
export function Freshness({ view, pollSeconds, timeZone }: Props) {
  const queryClient = useQueryClient();
  const { zone } = useDisplayZone(timeZone);
  const { firstPage, updatedAt: at, keys, hasNextPage, isError } = usePaymentRows(view, { watchOnly: true });
  // the newest row shown, or none once the view has ended empty
  const ended = !hasNextPage && !isError;
  const newest = keys[0] ?? (ended ? null : undefined);
  const sorted = view.sort !== null;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the time of the first page, not of pages appended later
  const shown = useMemo(
    () => (sorted || firstPage === undefined || newest === undefined ? null : { newest, firstPage, at }),
    [sorted, firstPage, newest],
  );
  const newer = useNewerPayments(view, shown, pollSeconds);
  if (sorted) {
    const asOf = timeOfDay(firstPage?.as_of, zone);
    return asOf === null ? null : (
      <span className="freshness" role="status" data-testid="freshness">
        Sorted as of {asOf}
      </span>
    );
  }
  if (newer === null) return null;
  // HH:MM from the zone's kept offset: a new Intl format at every render showed as 21 ms of a first view's load
  // in a CPU profile with 4x throttling
  const time = wallClockIn(newer.checkedAt, zone).time.slice(0, 5);
  const show = () => {
    document.querySelector('.grid-scroll')?.scrollTo({ top: 0 });
    void refreshView(queryClient, view).catch(() => undefined);
  };
  return (
    <span className="freshness" role="status" data-testid="freshness">
      Updated {time}
      {newer.count > 0 && (
        <>
          {' · '}
          <button type="button" className="button button--quiet" onClick={show}>
            {formatCount(newer.count)}
            {newer.more ? '+' : ''} new {newer.count === 1 && !newer.more ? 'payment' : 'payments'}: show
          </button>
        </>
      )}
    </span>
  );
}
