import { type Session, sessionSchema } from '@payments/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { bff, quietFetch, readJson } from '../../../lib/api-client.ts';
import { isApiError } from '../../../lib/api-error.ts';

/**
 * `GET /api/session`: who is signed in, or null when nobody is (the BFF's 401). "Signed out" is an answer, not a
 * failure: it is cached like one, so the layout and the sign-in page that follow do not ask again.
 */
async function getSession(signal?: AbortSignal): Promise<Session | null> {
  try {
    const response = await bff.api.session.$get(undefined, {
      fetch: quietFetch,
      init: { signal: signal ?? null },
    });
    return await readJson(response, sessionSchema);
  } catch (error) {
    if (isApiError(error) && error.status === 401) return null;
    throw error;
  }
}

export const sessionQueryOptions = queryOptions({
  queryKey: ['session'],
  queryFn: ({ signal }) => getSession(signal),
  retry: (count, error) => !(isApiError(error) && error.status < 500) && count < 2,
  staleTime: 60_000,
});

export function useSession() {
  return useQuery(sessionQueryOptions);
}
