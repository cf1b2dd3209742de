import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { isApiError } from '../../../lib/api-error.ts';
import { type ListView, listViewQuery } from '../view/list-view.ts';
import { paymentsQueryKey } from '../view/query-keys.ts';
import type { PaymentRows } from './use-payment-rows.ts';

/**
 * Sooner than this after a restart, an expired position is not the age of the list but a fault: the error then
 * shows with its Retry instead of the list starting over and over.
 */
const RESTART_AT_MOST_EVERY_MS = 10_000;

/**
 * A further page refused with `cursor_expired` (the BFF no longer holds the position the cursor names): the view
 * starts over from its first page, as Refresh would. True, for the notice that says so, until the view changes.
 */
export function useExpiredCursorRestart(
  view: ListView,
  list: Pick<PaymentRows, 'isFetchNextPageError' | 'error'>,
): boolean {
  const queryClient = useQueryClient();
  const viewId = listViewQuery(view);
  const [restartedView, setRestartedView] = useState<string | null>(null);
  const lastRestart = useRef<{ viewId: string | null; at: number }>({ viewId: null, at: 0 });
  const expired = list.isFetchNextPageError && isApiError(list.error) && list.error.code === 'cursor_expired';
  useEffect(() => {
    if (!expired) return;
    const now = Date.now();
    const last = lastRestart.current;
    if (last.viewId === viewId && now - last.at < RESTART_AT_MOST_EVERY_MS) return;
    lastRestart.current = { viewId, at: now };
    setRestartedView(viewId);
    void queryClient.resetQueries({ queryKey: paymentsQueryKey(view), exact: true });
  }, [expired, view, viewId, queryClient]);
  return restartedView === viewId;
}
