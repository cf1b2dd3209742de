import type { AppConfig } from '@payments/shared';
import { type ReactNode, Suspense, useEffect, useMemo } from 'react';
import { isApiError } from '../../../lib/api-error.ts';
import { firstViewIsDrawn } from '../../../lib/first-view.ts';
import { companyNames } from '../fields/company-names.ts';
import { deferredPart } from '../load-deferred-parts.ts';
import { useDisplayZone } from '../view/display-zone.ts';
import { activeFilterCount, type ListView, listViewQuery, NO_FILTERS } from '../view/list-view.ts';
import { useCountedSummary } from '../view/summary-cache.ts';
import { ListFooter } from './list-footer.tsx';
import { PaymentsTable } from './payments-table.tsx';
import { useSortProgress } from './sort-progress.ts';
import { useExpiredCursorRestart } from './use-expired-cursor-restart.ts';
import { usePaymentRows } from './use-payment-rows.ts';
import { useShortcutKey } from './use-shortcut-key.ts';

const KeyboardShortcuts = deferredPart('KeyboardShortcuts');
const EmptyListPanel = deferredPart('EmptyListPanel');
const FirstPageErrorPanel = deferredPart('FirstPageErrorPanel');
// from the view's figures at any date (summary/), so by name through the deferred chunk
const DataSpanHint = deferredPart('DataSpanHint');

interface Props {
  view: ListView;
  /** Who is signed in: the table keeps each user's column layout. */
  username: string;
  config: AppConfig;
  /** The view's figures, beside the table's tools. */
  summary: ReactNode;
  onChange: (next: Partial<ListView>) => void;
}

/** The view's payments: its rows as they load, its footer with the count so far, its keyboard shortcuts. */
export function PaymentsList({ view, username, config, summary, onChange }: Props) {
  const list = usePaymentRows(view);
  // the view's figures once counted: the footer says of how many
  const counted = useCountedSummary(view);
  const restarted = useExpiredCursorRestart(view, list);
  const sorting = useSortProgress(view);
  const companyName = useMemo(() => companyNames(config.companies), [config.companies]);
  // one object while the config is the same: the memoized rows compare it by identity
  const { zone } = useDisplayZone(config.time_zone);
  const context = useMemo(
    () => ({ timeZone: zone, sourceZone: config.time_zone, amountUnit: config.amount_unit }),
    [zone, config.time_zone, config.amount_unit],
  );
  const none = list.rows.length === 0;
  const failedFirst = list.isError && none && !list.isFetchNextPageError;
  // empty only once the list has ended: a page may be empty while more follow
  const empty = !list.awaitingRows && !list.isError && !list.hasNextPage && none;
  const hasFilters = activeFilterCount(view) > 0;
  const firstView = list.awaitingRows;
  const [shortcutsOpen, closeShortcuts] = useShortcutKey();
  useEffect(() => {
    if (!firstView) firstViewIsDrawn();
  }, [firstView]);
  return (
    <>
      {shortcutsOpen && (
        <Suspense fallback={null}>
          <KeyboardShortcuts onClose={closeShortcuts} />
        </Suspense>
      )}
      <PaymentsTable
        list={list}
        username={username}
        sort={{ value: view.sort, onChange: (sort) => onChange({ sort }) }}
        group={view.group}
        companyName={companyName}
        summary={summary}
        context={context}
        search={listViewQuery(view)}
        limit={view.limit}
        panel={
          <Suspense fallback={null}>
            {empty && (
              <EmptyListPanel
                view={view}
                hasFilters={hasFilters}
                onClearFilters={() => onChange(NO_FILTERS)}
                periodHint={<DataSpanHint view={view} />}
              />
            )}
            {failedFirst && (
              <FirstPageErrorPanel
                error={list.error}
                message={
                  isApiError(list.error) && list.error.code === 'forbidden_company'
                    ? `You do not have access to the company “${companyName(view.company ?? config.own_company_id)}”. Choose another company in the switcher.`
                    : undefined
                }
                onRetry={list.retry}
              />
            )}
          </Suspense>
        }
        footer={
          <ListFooter
            count={list.rows.length}
            total={counted}
            list={list}
            restarted={restarted}
            sorting={sorting}
          />
        }
      />
    </>
  );
}
