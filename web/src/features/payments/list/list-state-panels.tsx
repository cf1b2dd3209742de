import type { ReactNode } from 'react';
import { errorMessage, retryCanHelp } from '../../../lib/api-error.ts';
import { type ListView, rangeInverted } from '../view/list-view.ts';

// The empty and failed states of the list: in the deferred chunk, which is in by the time either shows.

/** Nothing listed: said, with Clear filters, and for a period, where the view's data begins and ends. */
export function EmptyListPanel({
  view,
  hasFilters,
  onClearFilters,
  periodHint,
}: {
  view: ListView;
  hasFilters: boolean;
  onClearFilters: () => void;
  /** Where the view's data begins and ends (summary/data-span-hint.tsx). */
  periodHint: ReactNode;
}) {
  return (
    <div className="panel panel--empty" role="status">
      <p>No payments match {hasFilters ? 'these filters' : 'this company'}.</p>
      {(view.dateFrom !== null || view.dateTo !== null) && !rangeInverted(view) && periodHint}
      {hasFilters && (
        <button type="button" className="button" onClick={onClearFilters}>
          Clear filters
        </button>
      )}
    </div>
  );
}

/**
 * The first page failed: nothing to show but why (`message` where the view knows better, as naming the company
 * refused), and a Retry where asking again can help.
 */
export function FirstPageErrorPanel({
  error,
  message,
  onRetry,
}: {
  error: unknown;
  message?: string | undefined;
  onRetry: () => void;
}) {
  return (
    <div className="panel panel--error" role="alert">
      <p>{message ?? errorMessage(error)}</p>
      {retryCanHelp(error) && (
        <button type="button" className="button" onClick={onRetry}>
          Retry
        </button>
      )}
    </div>
  );
}
