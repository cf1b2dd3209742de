import { useMutation, useQueryClient } from '@tanstack/react-query';
import { bff, quietFetch } from '../../../lib/api-client.ts';
import { resetSessionClock } from '../../../lib/session-clock.ts';

/** `DELETE /api/session`: the server ends the session (with `everywhere`, every session of the user). */
async function signOut(everywhere: boolean): Promise<void> {
  await bff.api.session.$delete(
    { query: { everywhere: everywhere ? 'true' : 'false' } },
    { fetch: quietFetch },
  );
}

/**
 * Signs out, then drops every cached query — whatever the server answered (the session may already be gone;
 * leaving is still right), no payment data may stay in memory once the user asked to leave — and calls `then` in
 * the same tick, before anything re-renders from the cache.
 */
export function useSignOut(then: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: signOut,
    // offline, the request fails at once and the user still leaves, rather than waiting for the network
    networkMode: 'always',
    onSettled: () => {
      queryClient.clear();
      resetSessionClock();
      then();
    },
  });
}
