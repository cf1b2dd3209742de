import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import type { ListView } from '../view/list-view.ts';
import { paymentsQueryKey, searchQueryKey, summaryQueryKey } from '../view/query-keys.ts';
import { getPaymentsPage } from './get-payments.ts';
import type { ListPage } from './list-page.ts';
import { withSortProgress } from './sort-progress.ts';

/**
 * The view again, as it is now: its list from a new first page (a new pagination session; a sorted view sorted
 * again from a walk begun after the click), its figures counted
 * again past the BFF's cache, its search run again. The rows on screen stay until the new first page replaces
 * them, and the figures until the new ones arrive: nothing blanks. Rejects with the first page's failure, the
 * rows shown then staying as they were.
 */
export async function refreshView(client: QueryClient, view: ListView): Promise<void> {
  // the summary's query knows how to count again (its code is in the deferred chunk); a view not counted yet
  // has nothing to refresh there
  void client.refetchQueries({ queryKey: summaryQueryKey(view), exact: true });
  if (view.q !== null) {
    await client.refetchQueries({ queryKey: searchQueryKey(view), exact: true });
    return;
  }
  const key = paymentsQueryKey(view);
  await client.cancelQueries({ queryKey: key, exact: true });
  // fresh: a sorted view is walked again from now, not cut from the rows the BFF sorted before
  const first = await withSortProgress(client, view, (onSortProgress) =>
    getPaymentsPage(view, null, { fresh: true, onSortProgress }),
  );
  client.setQueryData<InfiniteData<ListPage, string | null>>(key, { pages: [first], pageParams: [null] });
}
