import { useCallback, useMemo } from 'react';
import { paths } from '../../../config/paths.ts';
import { useNavigate, useSearchParams } from '../../../lib/history-router.tsx';
import { type ListView, listViewQuery, parseListView } from './list-view.ts';

/**
 * The view the address names, and how to change it. The URL is the state: every change is a new history entry,
 * so Back restores the previous view; a change also closes the drawer.
 */
export function usePaymentsView() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const view = useMemo(() => parseListView(params), [params]);
  const setView = useCallback(
    (next: Partial<ListView>) =>
      navigate({ pathname: paths.payments, search: listViewQuery({ ...view, ...next }) }),
    [navigate, view],
  );
  return { view, setView };
}
