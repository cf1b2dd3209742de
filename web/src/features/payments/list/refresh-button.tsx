import { useMutation, useQueryClient } from '@tanstack/react-query';
import { errorMessage } from '../../../lib/api-error.ts';
import type { ListView } from '../view/list-view.ts';
import { refreshView } from './refresh-view.ts';

/** The view again, as it is now: its list from its first page and its figures counted again (refreshView). */
export function RefreshButton({ view }: { view: ListView }) {
  const queryClient = useQueryClient();
  const refresh = useMutation({ mutationFn: (shown: ListView) => refreshView(queryClient, shown) });
  return (
    <>
      <button
        type="button"
        className="button"
        aria-busy={refresh.isPending}
        disabled={refresh.isPending}
        onClick={() => refresh.mutate(view)}
      >
        Refresh
      </button>
      {refresh.isError && (
        <span className="field__error" role="status">
          Not refreshed: {errorMessage(refresh.error)}
        </span>
      )}
    </>
  );
}
