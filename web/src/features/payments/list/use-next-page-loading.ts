import { useEffect } from 'react';
import type { PaymentRows } from './use-payment-rows.ts';

/** The fewest rows still ahead of the drawn ones when the next page is asked for. */
const READ_AHEAD_ROWS = 20;

/**
 * When the next page loads: while half a page of rows (20 at least) is still ahead of the last one drawn, so
 * scrolling rarely meets the end; not as a first view that fills the screen is drawn, whose rows are all the user
 * sees yet. Pages may be shorter than the limit, or empty while more follow: rows that do not reach that far,
 * none at all included, make it ask at once, and again after each page, until the list fills or ends.
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
    if (!hasNextPage || isFetchingNextPage || isFetchNextPageError) return;
    const ahead = Math.max(Math.ceil(limit / 2), READ_AHEAD_ROWS);
    if (rowCount === 0 || (lastDrawnIndex >= 0 && lastDrawnIndex >= rowCount - ahead)) fetchNextPage();
  }, [lastDrawnIndex, rowCount, hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage, limit]);
}
