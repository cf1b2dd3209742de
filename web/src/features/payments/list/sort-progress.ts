import { type QueryClient, skipToken, useQuery } from '@tanstack/react-query';
import type { ListView } from '../view/list-view.ts';
import { sortProgressKey } from '../view/query-keys.ts';
import type { SortProgress } from './list-page.ts';

/**
 * Runs a sorted view's first page with its progress kept in the query cache (the store the list already reads),
 * where the footer finds it (`useSortProgress`), and cleared once the page came or failed. A view in the
 * upstream's order runs as it is: it is not walked first.
 */
export async function withSortProgress<T>(
  client: QueryClient,
  view: ListView,
  run: (onSortProgress: ((progress: SortProgress) => void) | undefined) => Promise<T>,
): Promise<T> {
  if (view.sort === null) return run(undefined);
  const key = sortProgressKey(view);
  try {
    return await run((progress) => client.setQueryData(key, progress));
  } finally {
    client.setQueryData(key, null);
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
