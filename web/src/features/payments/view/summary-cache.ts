import type { Summary } from '@payments/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useSyncExternalStore } from 'react';
import type { ListView } from './list-view.ts';
import { summaryQueryKey } from './query-keys.ts';

/** A summary as it streams in: payments counted so far, then the figures. */
export interface SummaryProgress {
  counted: number;
  summary: Summary | null;
}

/**
 * A value picked from the view's summary as it is in the cache, drawn again only when that value changes. Read
 * from the cache, not through a query of its own: the stream reader is not part of the first view
 * (the summary bar, in the deferred chunk, loads it and asks), and an observer without it would leave the query
 * options without a way to fetch for the next refetch.
 */
function useSummaryCache<T>(view: ListView, pick: (progress: SummaryProgress | undefined) => T): T {
  const client = useQueryClient();
  const key = summaryQueryKey(view);
  // one subscription for the component's life, not one per render
  const subscribe = useCallback(
    (onChange: () => void) => client.getQueryCache().subscribe(onChange),
    [client],
  );
  return useSyncExternalStore(subscribe, () => pick(client.getQueryData<SummaryProgress>(key)));
}

/** How many payments of the view are counted so far. */
export function useCountedSoFar(view: ListView): number {
  return useSummaryCache(view, (progress) => progress?.counted ?? 0);
}

/**
 * The view's figures once counted, or null: a component using it (the whole list, for its footer) draws again
 * when the figures arrive, not at each page the count reads.
 */
export function useCountedSummary(view: ListView): Summary | null {
  return useSummaryCache(view, (progress) => progress?.summary ?? null);
}
