import { useInfiniteQuery } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import { type ListView, listsRows } from '../view/list-view.ts';
import { paymentsQueryOptions } from './get-payments.ts';
import type { ListPage } from './list-page.ts';
import { createRowMerger, type MergedRows } from './merge-rows.ts';

/** The view's rows as every part of the page reads them, and where their loading stands. */
export interface PaymentRows extends MergedRows {
  /**
   * No row yet, and some to come: the first page is on its way, or the pages so far were empty while the
   * upstream says more follow. Only once the list has ended without rows is it empty.
   */
  awaitingRows: boolean;
  isError: boolean;
  error: unknown;
  /** The error is a further page's: the rows already loaded stay. */
  isFetchNextPageError: boolean;
  hasNextPage: boolean;
  isFetching: boolean;
  isFetchingNextPage: boolean;
  /** The first page as it came, and when its pages were last answered: what the freshness poll starts from. */
  firstPage: ListPage | undefined;
  updatedAt: number;
  fetchNextPage: () => void;
  /** Asks again for what failed: the page after the loaded ones, or the first page. */
  retry: () => void;
}

/**
 * The one way to read the list's pages: the view's infinite query, flattened into rows (see merge-rows.ts). The
 * list loads; every other reader (the filters, the drawer, the freshness poll) passes `watchOnly` and never asks
 * on mounting: one mounted after a failed first page would otherwise ask again, behind the list's Retry.
 */
export function usePaymentRows(view: ListView, { watchOnly = false } = {}): PaymentRows {
  // a view with its range inverted lists nothing, and asks for nothing (the date fields say why)
  const asks = listsRows(view);
  const query = useInfiniteQuery({ ...paymentsQueryOptions(view), enabled: asks && !watchOnly });
  // Appending a page merges only that page; another view's pages make the merger start over by itself.
  const [merge] = useState(createRowMerger);
  const pages = query.data?.pages;
  const merged = useMemo(() => merge(pages ?? []), [merge, pages]);
  const { fetchNextPage, refetch, isFetchNextPageError } = query;
  const loadNext = useCallback(() => void fetchNextPage(), [fetchNextPage]);
  const retry = useCallback(
    () => void (isFetchNextPageError ? fetchNextPage() : refetch()),
    [isFetchNextPageError, fetchNextPage, refetch],
  );
  return {
    ...merged,
    awaitingRows:
      asks && (query.isPending || (merged.rows.length === 0 && query.hasNextPage && !query.isError)),
    isError: query.isError,
    error: query.error,
    isFetchNextPageError,
    hasNextPage: query.hasNextPage,
    isFetching: query.isFetching,
    isFetchingNextPage: query.isFetchingNextPage,
    firstPage: pages?.[0],
    updatedAt: query.dataUpdatedAt,
    fetchNextPage: loadNext,
    retry,
  };
}
