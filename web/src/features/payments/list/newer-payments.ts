import { LIMIT_MAX } from '@payments/shared/rules';
import { useQuery } from '@tanstack/react-query';
import type { ListView } from '../view/list-view.ts';
import { paymentsQueryKey } from '../view/query-keys.ts';
import { getPaymentsPage } from './get-payments.ts';
import type { ListPage } from './list-page.ts';
import { rowIdentity } from './merge-rows.ts';

interface Newer {
  /** Payments newer than the newest one shown. */
  count: number;
  /** More than one page of them arrived: `count` is a lower bound. */
  more: boolean;
  /** When the view's newest payments were last asked for (epoch ms). */
  checkedAt: number;
}

/**
 * How many of `page`'s rows come before the row `newest` (its rowIdentity: in a group, another company's payment
 * may have the same id): those that arrived since it was shown. An empty view (`newest` null) has every row new.
 */
export function countNewer(page: ListPage, newest: string | null): { count: number; more: boolean } {
  if (newest === null) return { count: page.data.length, more: page.has_more && page.data.length > 0 };
  const index = page.data.findIndex((row, i) => rowIdentity(row, page.company_ids?.[i]) === newest);
  return index >= 0 ? { count: index, more: false } : { count: page.data.length, more: true };
}

/**
 * Asks for the view's first page every `pollSeconds` while the tab is visible (and at once when it comes back
 * after that long), in a query of its own: the rows on screen never change under the user; they say how many
 * newer payments there are, and "show" starts the list over. Starts from the list's own first page, so opening
 * the view costs no extra request.
 */
export function useNewerPayments(
  view: ListView,
  shown: { newest: string | null; firstPage: ListPage; at: number } | null,
  pollSeconds: number,
): Newer | null {
  const pollMs = pollSeconds * 1000;
  const head = { ...view, limit: LIMIT_MAX };
  const query = useQuery({
    queryKey: ['newer', ...paymentsQueryKey(view), shown?.newest],
    queryFn: ({ signal }) => getPaymentsPage(head, null, { signal, background: true }),
    enabled: shown !== null,
    initialData: shown?.firstPage,
    initialDataUpdatedAt: shown?.at,
    staleTime: pollMs,
    refetchInterval: pollMs,
    refetchIntervalInBackground: false,
    refetchOnWindowFocus: true,
    retry: false,
  });
  if (shown === null || query.data === undefined) return null;
  return { ...countNewer(query.data, shown.newest), checkedAt: query.dataUpdatedAt };
}
