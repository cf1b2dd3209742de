import { useQueryClient } from '@tanstack/react-query';
import { type PaymentsSession, paymentsQueryKey } from '../api/get-payments.ts';

/** Starts the same view over as a new pagination session, from its first page. */
export function RefreshButton({ session }: { session: PaymentsSession }) {
  const queryClient = useQueryClient();
  return (
    <button
      type="button"
      className="button"
      onClick={() => void queryClient.resetQueries({ queryKey: paymentsQueryKey(session), exact: true })}
    >
      Refresh
    </button>
  );
}
