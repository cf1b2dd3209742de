import { useEffect } from 'react';
import type { PaymentRows } from './use-payment-rows.ts';

/** The fewest rows still ahead of the drawn ones when the next page is asked for. */
const READ_AHEAD_ROWS = 20;

/**
 * When the next page loads: while half a page of rows (20 at least) is still ahead of the last one drawn, so
 * scrolling rarely meets the end; not as the first view is drawn, whose rows are all the user sees yet.
 */
export function useNextPageLoading(
  list: Pick<
    PaymentRows,
    'rows' | 'hasNextPage' | 'isFetchingNextPage' | 'isFetchNextPageError' | 'fetchNextPage'
  >,
  lastDrawnIndex: number,
  limit: number,
): void {
  const rowCount = list.rows.length;
  const { hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage } = list;
  useEffect(() => {
    if (lastDrawnIndex < 0 || !hasNextPage || isFetchingNextPage || isFetchNextPageError) return;
    if (lastDrawnIndex >= rowCount - Math.max(Math.ceil(limit / 2), READ_AHEAD_ROWS)) fetchNextPage();
  }, [lastDrawnIndex, rowCount, hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage, limit]);
}
