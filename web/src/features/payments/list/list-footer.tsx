import { errorMessage } from '../../../lib/api-error.ts';
import { formatCount } from '../fields/number-text.ts';
import type { SortProgress } from './list-page.ts';
import type { PaymentRows } from './use-payment-rows.ts';

/** What the footer reads of the list's loading state. */
type ListState = Pick<
  PaymentRows,
  | 'awaitingRows'
  | 'isError'
  | 'error'
  | 'isFetchNextPageError'
  | 'hasNextPage'
  | 'isFetchingNextPage'
  | 'retry'
>;

/** How many payments the view holds, once counted; `complete: false` when the count stopped at its cap. */
export interface ListTotal {
  count: number;
  complete: boolean;
}

/**
 * How many rows are loaded, of how many once the summary has counted them, and whether more follow; a further
 * page's failure with its Retry; that the list started over (`restarted`, see use-expired-cursor-restart.ts);
 * while the BFF walks a sorted view (`sorting`), how far it is.
 */
export function ListFooter({
  count,
  total,
  list,
  restarted,
  sorting,
}: {
  count: number;
  total: ListTotal | null;
  list: ListState;
  restarted: boolean;
  sorting: SortProgress | null;
}) {
  return (
    <footer className="payments__footer">
      {/* The line as a list of one text: React then rewrites its text node in place, where it replaces a lone
          string child whole at each change, which the browser takes for new content (a later "largest paint"
          once the count adds "of 4,388"). */}
      <p role="status" aria-live="polite" data-testid="list-status">
        {[sorting === null ? listStatus(count, total, list) : 'Sorting payments…']}
      </p>
      {sorting !== null && (
        <>
          {/* outside the live region: the figure changes at every page the BFF reads */}
          <span className="hint" data-testid="sorting-progress">
            {sortingStatus(sorting)}
          </span>
          <progress
            className="payments__sorting"
            aria-label="Sorting"
            max={sorting.estimate ?? undefined}
            value={sorting.estimate === null ? undefined : Math.min(sorting.sorted, sorting.estimate)}
          />
        </>
      )}
      {list.isFetchNextPageError && (
        <div className="inline-error" role="alert">
          <span>Could not load more: {errorMessage(list.error)}</span>
          <button type="button" className="button" onClick={list.retry}>
            Retry
          </button>
        </div>
      )}
      {restarted && (
        <p className="notice" role="status">
          The list was restarted because its position expired.
        </p>
      )}
    </footer>
  );
}

/**
 * "12,400 of 16,000 read", the "of" once a count of the view is known and not passed (a count kept from before
 * the view changed can be).
 */
export function sortingStatus({ sorted, estimate }: SortProgress): string {
  const of = estimate === null || sorted > estimate ? '' : ` of ${formatCount(estimate)}`;
  return `${formatCount(sorted)}${of} read`;
}

function listStatus(count: number, total: ListTotal | null, list: ListState): string {
  if (list.awaitingRows) return 'Loading payments…';
  if (list.isError && count === 0) return 'No payments loaded.';
  // "of N" only while more follow: at the end of the list the rows loaded are all there are
  const of =
    total === null || !list.hasNextPage
      ? ''
      : ` of ${total.complete ? '' : 'more than '}${formatCount(total.count)}`;
  const loaded = `${formatCount(count)} ${count === 1 ? 'payment' : 'payments'} loaded${of}`;
  if (list.isFetchingNextPage) return `${loaded} · loading more…`;
  if (list.hasNextPage) return `${loaded} · more available, scroll to load`;
  return `${loaded} · end of list`;
}
