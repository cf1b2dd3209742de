import { useQueryClient } from '@tanstack/react-query';
import type { ListView } from '../view/list-view.ts';
import { paymentsQueryKey } from './get-payments.ts';

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
