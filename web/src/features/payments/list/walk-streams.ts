import { queryOptions, experimental_streamedQuery as streamedQuery, useQuery } from '@tanstack/react-query';
import { bff } from '../../../lib/api-client.ts';
import { ApiError } from '../../../lib/api-error.ts';
import {
  badStreamEvent,
  eventData,
  serverSentEvents,
  streamedProblem,
  wholeCount,
} from '../../../lib/server-sent-events.ts';
import type { ListView } from '../view/list-view.ts';
import { searchQueryKey } from '../view/query-keys.ts';
import { companyHeader, filtersQuery } from '../view/view-request.ts';
import { type ListPage, listPageSchema } from './list-page.ts';
import type { SearchProgress } from './search-cache.ts';

type SearchUpdate = Partial<Omit<SearchProgress, 'pages'>> & { page?: ListPage };

const badEvent = (what: string) => badStreamEvent('the search stream', what);

/** One event of the search stream as an update; the stream's end (`done`) or its problem ends the reading. */
function searchUpdate(event: string, body: unknown): SearchUpdate | 'ignored' {
  const fields = (body ?? {}) as Record<string, unknown>;
  switch (event) {
    case 'start': {
      const companies = wholeCount(fields.companies);
      if (companies === null) throw badEvent('a start without its companies');
      return { estimate: wholeCount(fields.estimate), companies };
    }
    case 'match': {
      const page = listPageSchema.safeParse({ ...fields, next_cursor: null, has_more: false });
      if (!page.success) throw badEvent('matches of an unexpected shape');
      return { page: page.data };
    }
    case 'progress': {
      const read = wholeCount(fields.read);
      if (read === null) throw badEvent('a progress event without its count');
      return { read };
    }
    case 'done': {
      const [read, found] = [wholeCount(fields.read), wholeCount(fields.found)];
      if (read === null || found === null || typeof fields.complete !== 'boolean')
        throw badEvent('an end of an unexpected shape');
      return { read, done: { found, complete: fields.complete } };
    }
    case 'error':
      throw streamedProblem(body, 'the search failed');
    default:
      return 'ignored';
  }
}

/**
 * A walk's stream (`GET /api/payments/search` or `/find`), read with fetch (EventSource cannot send the
 * anti-forgery header): what it will read, then matches and progress as the BFF walks, then how it ended. A
 * stream that ends without its end (the connection broke) is an error; one the user stopped keeps what it found.
 */
async function* walkUpdates(response: Response): AsyncGenerator<SearchUpdate> {
  if (response.body === null) throw badEvent('no body');
  for await (const { event, data } of serverSentEvents(response.body)) {
    const update = searchUpdate(event, eventData(data));
    if (update === 'ignored') continue;
    yield update;
    if (update.done) return;
  }
  throw new ApiError(0, 'interrupted', 'The search stopped before it finished.');
}

const started: SearchProgress = { estimate: null, companies: 0, read: 0, pages: [], done: null };

function walkQueryOptions(queryKey: readonly unknown[], request: (signal: AbortSignal) => Promise<Response>) {
  return queryOptions({
    queryKey,
    queryFn: streamedQuery({
      streamFn: async function* ({ signal }) {
        yield* walkUpdates(await request(signal));
      },
      reducer: (progress: SearchProgress, { page, ...update }: SearchUpdate): SearchProgress => ({
        ...progress,
        ...update,
        // appended, the pages before kept as they are: the row merger then reads only the new one
        pages: page ? [...progress.pages, page] : progress.pages,
      }),
      initialValue: started,
    }),
    // A finished walk is a snapshot: Back to it shows it again; one that did not finish runs again.
    staleTime: ({ state }: { state: { data?: SearchProgress | undefined } }) =>
      state.data?.done ? Number.POSITIVE_INFINITY : 0,
    refetchOnWindowFocus: false,
    retry: false,
  });
}

/** The view's payments matching its search (`q`), as they are found. */
export function useSearch(view: ListView) {
  return useQuery(
    walkQueryOptions(searchQueryKey(view), (signal) =>
      bff.api.payments.search.$get(
        { query: { ...filtersQuery(view), q: view.q ?? '' } },
        { headers: { ...companyHeader(view.company), Accept: 'text/event-stream' }, init: { signal } },
      ),
    ),
  );
}

/** A payment by its id, looked for in every company the user may see, side by side; the first found ends it. */
export function useFind(id: string) {
  return useQuery(
    walkQueryOptions(['find', id], (signal) =>
      bff.api.payments.find.$get(
        { query: { id } },
        { headers: { Accept: 'text/event-stream' }, init: { signal } },
      ),
    ),
  );
}
