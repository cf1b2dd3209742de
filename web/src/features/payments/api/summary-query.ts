import type { Summary } from '@payments/shared';
import { useQuery } from '@tanstack/react-query';
import type { ListView } from '../utils/list-search-params.ts';

/** A summary as it streams in: payments counted so far, then the figures. */
export interface SummaryProgress {
  counted: number;
  summary: Summary | null;
}

/** One count per set of filters: the page size does not change what is counted. */
export function summaryQueryKey(view: ListView) {
  return ['summary', view.company, view.group, view.status, view.dateFrom, view.dateTo] as const;
}

/**
 * The view's summary once it is counted, or null. Only watches the cache: the stream reader is not part of the
 * first view (app/first-requests.ts and the summary bar load it and ask), and the list's footer needs only this.
 */
export function useCountedSummary(view: ListView): Summary | null {
  const { data } = useQuery<SummaryProgress>({ queryKey: summaryQueryKey(view), enabled: false });
  return data?.summary ?? null;
}
