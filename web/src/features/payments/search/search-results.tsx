import type { AppConfig } from '@payments/shared';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useMemo, useState } from 'react';
import { errorMessage, retryCanHelp } from '../../../lib/api-error.ts';
import { companyNames } from '../fields/company-names.ts';
import { createRowMerger } from '../list/merge-rows.ts';
import { PaymentsTable, type TableRows } from '../list/payments-table.tsx';
import { useSearch } from '../list/walk-streams.ts';
import { useDisplayZone } from '../view/display-zone.ts';
import { type ListView, listViewQuery } from '../view/list-view.ts';
import { searchQueryKey } from '../view/query-keys.ts';
import { type SearchState, searchedSoFar, searchHeadline } from './search-status.ts';

interface Props {
  view: ListView;
  /** Who is signed in: the table keeps each user's column layout. */
  username: string;
  config: AppConfig;
  summary: ReactNode;
  onChange: (next: Partial<ListView>) => void;
}

const noMore = () => {};

/**
 * The view's payments that match its search, in the list's table, as the BFF finds them; how far it has read,
 * Stop, and the way back to the whole list. A chunk of its own: it loads when a search is made.
 */
export default function SearchResults({ view, username, config, summary, onChange }: Props) {
  const queryClient = useQueryClient();
  const search = useSearch(view);
  const progress = search.data ?? null;
  const [merge] = useState(createRowMerger);
  const pages = progress?.pages;
  const merged = useMemo(() => merge(pages ?? []), [merge, pages]);
  const list: TableRows = {
    ...merged,
    awaitingRows: false,
    hasNextPage: false,
    isFetchingNextPage: false,
    isFetchNextPageError: false,
    fetchNextPage: noMore,
  };
  const companyName = useMemo(() => companyNames(config.companies), [config.companies]);
  const { zone } = useDisplayZone(config.time_zone);
  const context = useMemo(
    () => ({ timeZone: zone, sourceZone: config.time_zone, amountUnit: config.amount_unit }),
    [zone, config.time_zone, config.amount_unit],
  );
  const state: SearchState =
    search.fetchStatus === 'fetching' ? 'running' : progress?.done ? 'done' : 'stopped';
  const stop = () => void queryClient.cancelQueries({ queryKey: searchQueryKey(view), exact: true });
  const again = () => void search.refetch();
  const back = () => onChange({ q: null });
  const none = merged.rows.length === 0;

  return (
    <PaymentsTable
      list={list}
      username={username}
      group={view.group}
      companyName={companyName}
      summary={summary}
      context={context}
      search={listViewQuery(view)}
      limit={view.limit}
      panel={
        search.isError && none ? (
          <div className="panel panel--error" role="alert">
            <p>The search failed: {errorMessage(search.error)}</p>
            {retryCanHelp(search.error) && (
              <button type="button" className="button" onClick={again}>
                Search again
              </button>
            )}
          </div>
        ) : state === 'done' && none ? (
          <div className="panel panel--empty" role="status">
            <p>
              No payment matches “{view.q}” in this view: {searchedSoFar(progress, state)}.
            </p>
            <button type="button" className="button" onClick={back}>
              Back to the full list
            </button>
          </div>
        ) : null
      }
      footer={
        <footer className="payments__footer search-footer">
          <p role="status" data-testid="search-status">
            {[searchHeadline(progress, state)]}
          </p>
          {/* outside the live region: the figure changes at every page the BFF reads */}
          <span className="hint" data-testid="search-progress">
            {searchedSoFar(progress, state)}
          </span>
          {state === 'running' ? (
            <button type="button" className="button" onClick={stop}>
              Stop
            </button>
          ) : (
            <button type="button" className="button button--quiet" onClick={again}>
              Search again
            </button>
          )}
          <button type="button" className="button button--quiet" onClick={back}>
            Back to the full list
          </button>
          {search.isError && !none && (
            <span className="inline-error" role="alert">
              The search stopped: {errorMessage(search.error)}
            </span>
          )}
        </footer>
      }
    />
  );
}
