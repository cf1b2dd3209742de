import { type QueryClient, skipToken, useQuery } from '@tanstack/react-query';
import type { ListView } from '../view/list-view.ts';
import { sortProgressKey } from '../view/query-keys.ts';
import type { SortProgress } from './list-page.ts';

/**
 * Runs a sorted view's first page with its progress kept in the query cache (the store the list already reads),
 * where the footer finds it (`useSortProgress`), and cleared once the page came or failed: on the next task, when
 * the page is in the cache (the footer then goes from the progress to the rows, not through "Loading…"), and only
 * if the progress there is still this run's (a Refresh may have started another). A view in the upstream's order
 * runs as it is: it is not walked first.
 */
export async function withSortProgress<T>(
  client: QueryClient,
  view: ListView,
  run: (onSortProgress: ((progress: SortProgress) => void) | undefined) => Promise<T>,
): Promise<T> {
  if (view.sort === null) return run(undefined);
  const key = sortProgressKey(view);
  let mine: SortProgress | undefined;
  try {
    return await run((progress) => {
      mine = progress;
      client.setQueryData(key, progress);
    });
  } finally {
    setTimeout(() => {
      // compared by value: the cache keeps a copy of what it is given (structural sharing)
      const now = client.getQueryData<SortProgress | null>(key);
      if (mine !== undefined && now?.sorted === mine.sorted && now.estimate === mine.estimate)
        client.setQueryData(key, null);
    });
  }
}

/** How far the BFF is in sorting the view, while it is; null otherwise. */
export function useSortProgress(view: ListView): SortProgress | null {
  const { data } = useQuery<SortProgress | null>({
    queryKey: sortProgressKey(view),
    queryFn: skipToken,
    staleTime: Number.POSITIVE_INFINITY,
  });
  return data ?? null;
}
