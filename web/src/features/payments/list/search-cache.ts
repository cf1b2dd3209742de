import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useState, useSyncExternalStore } from 'react';
import type { ListView } from '../view/list-view.ts';
import { searchQueryKey } from '../view/query-keys.ts';
import type { ListPage } from './list-page.ts';
import { createRowMerger, type MergedRows } from './merge-rows.ts';

/** A search as it streams in: what it expects to read, what it read, the matches in the order they came. */
export interface SearchProgress {
  /** Rows the view holds, when a count of it was at hand (the BFF's cached summary); else null. */
  estimate: number | null;
  /** Companies walked side by side. */
  companies: number;
  read: number;
  /** Each `match` event as a page: its rows and their companies. */
  pages: readonly ListPage[];
  /** Set by the stream's last event: matches sent, and false when it stopped at its limit of matches. */
  done: { found: number; complete: boolean } | null;
}

/**
 * The view's matches as rows, read from the cache as the search fills it (its stream reader loads with the
 * results, not with the first view): the drawer opens a payment from them as from the list's rows. `searching`:
 * the search has not ended yet (nor failed), so a payment not among its matches may still come.
 */
export function useSearchRows(view: ListView): MergedRows & { searching: boolean } {
  const client = useQueryClient();
  const key = searchQueryKey(view);
  const subscribe = useCallback(
    (onChange: () => void) => client.getQueryCache().subscribe(onChange),
    [client],
  );
  const pages = useSyncExternalStore(
    subscribe,
    () => client.getQueryData<SearchProgress>(key)?.pages ?? NO_PAGES,
  );
  const searching = useSyncExternalStore(
    subscribe,
    () =>
      client.getQueryData<SearchProgress>(key)?.done == null && client.getQueryState(key)?.status !== 'error',
  );
  const [merge] = useState(createRowMerger);
  return useMemo(() => ({ ...merge(pages), searching }), [merge, pages, searching]);
}

const NO_PAGES: readonly ListPage[] = [];
