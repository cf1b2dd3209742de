import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { bff, quietFetch } from '../../../lib/api-client.ts';

/** `DELETE /api/session`: the server ends the session (with `everywhere`, every session of the user). */
async function signOut(everywhere: boolean): Promise<void> {
  await bff.api.session.$delete(
    { query: { everywhere: everywhere ? 'true' : 'false' } },
    { fetch: quietFetch },
  );
}

/**
 * Signs out, then drops every cached query — whatever the server answered, no payment data may stay in memory
 * once the user asked to leave — and calls `then` in the same tick, before anything re-renders from the cache.
 */
export function useSignOut(then: () => void) {
  const queryClient = useQueryClient();
  const [pending, setPending] = useState(false);
  const run = useCallback(
    async (everywhere = false) => {
      setPending(true);
      try {
        await signOut(everywhere);
      } catch {
        // the session may already be gone; leaving is still right
      } finally {
        queryClient.clear();
        then();
      }
    },
    [queryClient, then],
  );
  return { run, pending };
}
