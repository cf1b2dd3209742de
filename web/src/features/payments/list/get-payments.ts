import { BACKGROUND_HEADER } from '@payments/shared/rules';
import { infiniteQueryOptions } from '@tanstack/react-query';
import { bff, readJson } from '../../../lib/api-client.ts';
import { isApiError } from '../../../lib/api-error.ts';
import type { ListView } from '../view/list-view.ts';
import { paymentsQueryKey } from '../view/query-keys.ts';
import { companyHeader, filtersQuery, sortQuery } from '../view/view-request.ts';
import { type ListPage, listPageSchema, type SortProgress } from './list-page.ts';
import { withSortProgress } from './sort-progress.ts';

interface PageAsking {
  signal?: AbortSignal | undefined;
  /** Asked by the app itself (the freshness poll): not use of the session for its idle timeout. */
  background?: boolean;
  /** A Refresh's first page: never cut from a sorted view the BFF sorted before it was asked. */
  fresh?: boolean;
  /** A sorted view's first page is streamed while the BFF walks the view: told how far it is. */
  onSortProgress?: (progress: SortProgress) => void;
}

/**
 * `GET /api/payments`: one page of the view, checked as an envelope with both its rules. A sorted view's first
 * page, when the BFF has to walk the view for it, comes as a stream of progress ending in the page (the BFF
 * answers plain JSON when it sorted the view already, or for any later page).
 */
export async function getPaymentsPage(
  view: ListView,
  cursor: string | null,
  { signal, background = false, fresh = false, onSortProgress }: PageAsking = {},
): Promise<ListPage> {
  const streamed = cursor === null && view.sort !== null && onSortProgress !== undefined;
  const response = await bff.api.payments.$get(
    {
      query: {
        limit: String(view.limit),
        ...filtersQuery(view),
        ...sortQuery(view),
        cursor: cursor ?? undefined,
        ...(fresh ? { fresh: 'true' as const } : {}),
      },
    },
    {
      headers: {
        ...companyHeader(view.company),
        ...(background ? { [BACKGROUND_HEADER]: '1' } : {}),
        ...(streamed ? { Accept: 'text/event-stream' } : {}),
      },
      init: { signal: signal ?? null },
    },
  );
  if (streamed && (response.headers.get('Content-Type') ?? '').startsWith('text/event-stream')) {
    // a chunk of its own: the first view is newest first
    const { readSortedStream } = await import('./sorted-stream.ts');
    return readSortedStream(response, onSortProgress);
  }
  return readJson(response, listPageSchema);
}

export function paymentsQueryOptions(view: ListView) {
  return infiniteQueryOptions({
    queryKey: paymentsQueryKey(view),
    // Reading `signal` lets Query abort the request when the key changes and nobody watches the old session.
    queryFn: ({ pageParam, signal, client }) =>
      pageParam === null
        ? withSortProgress(client, view, (onSortProgress) =>
            getPaymentsPage(view, null, { signal, onSortProgress }),
          )
        : getPaymentsPage(view, pageParam, { signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => (last.has_more ? last.next_cursor : undefined),
    // Pages are a snapshot walked by cursor: re-fetching all of them on focus would cost N calls and could
    // reorder rows under the user. "Refresh" starts a new session instead.
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
    // The BFF already retries the upstream's transient failures, so only a lost connection is tried again
    // here; anything else shows at once with its own "Retry".
    retry: (count, error) => isApiError(error) && error.code === 'network_error' && count < 1,
  });
}
