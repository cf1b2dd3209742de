import { useCallback, useMemo } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { type ListView, listViewQuery, parseListView } from './list-view.ts';

/**
 * The view the address names, and how to change it. The URL is the state: every change is a new history entry,
 * so Back restores the previous view; a change also closes the drawer. `hrefOf` is the address of a changed view,
 * for links (a new tab, a copied link), `setView` goes there.
 */
export function usePaymentsView() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const view = useMemo(() => parseListView(params), [params]);
  const hrefOf = useCallback(
    (next: Partial<ListView>) => `${paths.payments}${listViewQuery({ ...view, ...next })}`,
    [view],
  );
  const setView = useCallback((next: Partial<ListView>) => void navigate(hrefOf(next)), [navigate, hrefOf]);
  return { view, setView, hrefOf };
}
