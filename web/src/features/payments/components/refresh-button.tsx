import { useQueryClient } from '@tanstack/react-query';
import { paymentsQueryKey } from '../api/get-payments.ts';
import type { ListView } from '../utils/list-search-params.ts';

/** Starts the same view over as a new pagination session, from its first page. */
export function RefreshButton({ view }: { view: ListView }) {
  const queryClient = useQueryClient();
  return (
    <button
      type="button"
      className="button"
      onClick={() => void queryClient.resetQueries({ queryKey: paymentsQueryKey(view), exact: true })}
    >
      Refresh
    </button>
  );
}
