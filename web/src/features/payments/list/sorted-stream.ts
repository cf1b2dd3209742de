import { ApiError } from '../../../lib/api-error.ts';
import {
  badStreamEvent,
  eventData,
  serverSentEvents,
  streamedProblem,
  wholeCount,
} from '../../../lib/server-sent-events.ts';
import { type ListPage, listPageSchema, type SortProgress } from './list-page.ts';

const badEvent = (what: string) => badStreamEvent("the sorted list's stream", what);

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
  for await (const { event, data } of serverSentEvents(response.body)) {
    const body = eventData(data);
    const fields = (body ?? {}) as Record<string, unknown>;
    if (event === 'progress') {
      const sorted = wholeCount(fields.sorted);
      if (sorted === null) throw badEvent('a progress event without its count');
      onProgress({ sorted, estimate: wholeCount(fields.estimate) });
    } else if (event === 'page') {
      const page = listPageSchema.safeParse(body);
      if (!page.success) throw badEvent('a page of an unexpected shape');
      return page.data;
    } else if (event === 'error') throw streamedProblem(body, 'sorting this view failed');
  }
  throw new ApiError(0, 'interrupted', 'Sorting stopped before it finished.');
}
