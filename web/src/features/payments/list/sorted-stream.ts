import { ApiError } from '../../../lib/api-error.ts';
import { eventData, serverSentEvents, streamedProblem } from '../../../lib/server-sent-events.ts';
import { type ListPage, listPageSchema, type SortProgress } from './list-page.ts';

const count = (value: unknown) => (typeof value === 'number' && Number.isInteger(value) ? value : null);

function badEvent(what: string): ApiError {
  return new ApiError(200, 'bad_response', `the sorted list's stream sent ${what}`);
}

/**
 * A sorted view's first page as the BFF streams it while it walks the view (sort/sorted-list.ts): `progress`
 * events (`{ sorted, estimate }`) told to `onProgress` as they come, then the `page`, or an `error` thrown as
 * the failed request's would be. In the deferred chunk, with the other stream readers: the first view is newest
 * first.
 */
export async function readSortedStream(
  response: Response,
  onProgress: (progress: SortProgress) => void,
): Promise<ListPage> {
  if (response.body === null) throw badEvent('no body');
  try {
    return await readEvents(response.body, onProgress);
  } catch (error) {
    // the connection broke while the BFF walked (the query's own abort stays an abort)
    if (error instanceof ApiError || (error instanceof DOMException && error.name === 'AbortError'))
      throw error;
    throw new ApiError(
      0,
      'network_error',
      error instanceof Error ? error.message : 'the connection was lost',
    );
  }
}

async function readEvents(
  body: ReadableStream<Uint8Array>,
  onProgress: (progress: SortProgress) => void,
): Promise<ListPage> {
  for await (const { event, data } of serverSentEvents(body)) {
    const body = eventData(data);
    const fields = (body ?? {}) as Record<string, unknown>;
    if (event === 'progress') {
      const sorted = count(fields.sorted);
      if (sorted === null) throw badEvent('a progress event without its count');
      onProgress({ sorted, estimate: count(fields.estimate) });
    } else if (event === 'page') {
      const page = listPageSchema.safeParse(body);
      if (!page.success) throw badEvent('a page of an unexpected shape');
      return page.data;
    } else if (event === 'error') throw streamedProblem(body, 'sorting this view failed');
  }
  throw new ApiError(0, 'interrupted', 'Sorting stopped before it finished.');
}
