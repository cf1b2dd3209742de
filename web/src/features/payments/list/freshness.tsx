import { useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { formatCount } from '../fields/number-text.ts';
import type { ListView } from '../view/list-view.ts';
import { paymentsQueryKey } from './get-payments.ts';
import { rowIdentity } from './merge-rows.ts';
import { useNewerPayments } from './newer-payments.ts';
import { usePaymentRows } from './use-payment-rows.ts';

interface Props {
  view: ListView;
  pollSeconds: number;
  timeZone: string;
}

/** "Updated 10:42", and "3 new payments: show" once newer ones arrived; showing them starts the list over. */
export function Freshness({ view, pollSeconds, timeZone }: Props) {
  const queryClient = useQueryClient();
  const { firstPage, updatedAt: at } = usePaymentRows(view, { watchOnly: true });
  // biome-ignore lint/correctness/useExhaustiveDependencies: the time of the first page, not of pages appended later
  const shown = useMemo(() => {
    const newest = firstPage?.data[0];
    if (firstPage === undefined || newest === undefined) return null;
    return { newest: rowIdentity(newest, firstPage.company_ids?.[0]), firstPage, at };
  }, [firstPage]);
  const newer = useNewerPayments(view, shown, pollSeconds);
  if (newer === null) return null;
  const time = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit' }).format(
    newer.checkedAt,
  );
  const show = () => {
    document.querySelector('.grid-scroll')?.scrollTo({ top: 0 });
    void queryClient.resetQueries({ queryKey: paymentsQueryKey(view), exact: true });
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
