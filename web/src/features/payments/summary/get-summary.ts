import { type Summary, summarySchema } from '@payments/shared';
import { queryOptions, experimental_streamedQuery as streamedQuery, useQuery } from '@tanstack/react-query';
import { bff } from '../../../lib/api-client.ts';
import { ApiError } from '../../../lib/api-error.ts';
import {
  badStreamEvent,
  eventData,
  serverSentEvents,
  streamedProblem,
} from '../../../lib/server-sent-events.ts';
import { type ListView, rangeInverted } from '../view/list-view.ts';
import { summaryQueryKey } from '../view/query-keys.ts';
import type { SummaryProgress } from '../view/summary-cache.ts';
import { companyHeader, filtersQuery } from '../view/view-request.ts';

const badEvent = (what: string) => badStreamEvent('the summary stream', what);

/**
 * `GET /api/payments/summary` as a stream: progress after every upstream page, then the figures. Read with
 * fetch, because EventSource cannot send the anti-forgery header; a stream that ends without its figures (the
 * connection broke, or a newer count of the same user replaced it) is an error, never a result.
 */
async function* summaryUpdates(
  view: ListView,
  signal: AbortSignal,
  fresh: boolean,
): AsyncGenerator<Partial<SummaryProgress>> {
  const response = await bff.api.payments.summary.$get(
    // under a search, the figures are of its matches: exactly the rows listed
    { query: { ...filtersQuery(view), q: view.q ?? undefined, fresh: fresh ? 'true' : undefined } },
    { headers: { ...companyHeader(view.company), Accept: 'text/event-stream' }, init: { signal } },
  );
  if (response.body === null) throw badEvent('no body');
  for await (const { event, data } of serverSentEvents(response.body)) {
    const body = eventData(data);
    if (event === 'progress') {
      const counted = (body as { counted?: unknown } | undefined)?.counted;
      if (typeof counted !== 'number') throw badEvent('a progress event without a count');
      yield { counted };
    } else if (event === 'summary') {
      // The figures of a long range are some 100 kB: read, then checked in a task of its own, then drawn (the
      // query notifies in a task of its own), rather than all three holding a phone's main thread at once.
      await new Promise((resolve) => setTimeout(resolve, 0));
      const checked = summarySchema.safeParse(body);
      if (!checked.success) throw badEvent('figures of an unexpected shape');
      const summary: Summary = checked.data;
      yield { counted: summary.count, summary };
      return;
    } else if (event === 'error') throw streamedProblem(body, 'the count failed');
  }
  throw new ApiError(
    0,
    'interrupted',
    'The count stopped before it finished (a newer count may have replaced it).',
  );
}

function summaryQueryOptions(view: ListView) {
  return queryOptions({
    queryKey: summaryQueryKey(view),
    queryFn: streamedQuery({
      // Figures on screen are counted again (fresh=true, past the BFF's cache): Refresh, "show", a Retry.
      streamFn: ({ signal, client, queryKey }) =>
        summaryUpdates(view, signal, client.getQueryData<SummaryProgress>(queryKey)?.summary != null),
      // The figures on screen stay until new ones replace them: a count again never blanks them.
      refetchMode: 'append',
      reducer: (progress: SummaryProgress, update: Partial<SummaryProgress>) => ({ ...progress, ...update }),
      initialValue: { counted: 0, summary: null },
    }),
    // The BFF keeps a summary for 60 s: asking again sooner would bring the same figures.
    staleTime: 60_000,
    refetchOnWindowFocus: false,
  });
}

/**
 * The view's figures; none are asked for a range that ends before it starts (the date fields say why), nor
 * while `enabled` is false.
 */
export function useSummary(view: ListView, enabled = true) {
  return useQuery({ ...summaryQueryOptions(view), enabled: enabled && !rangeInverted(view) });
}
