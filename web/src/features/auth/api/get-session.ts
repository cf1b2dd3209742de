import { sessionSchema } from '@payments/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { bff, quietFetch, readJson } from '../../../lib/api-client.ts';
import { isApiError } from '../../../lib/api-error.ts';

/** `GET /api/session`: who is signed in; 401 when nobody is. */
async function getSession(signal?: AbortSignal) {
  const response = await bff.api.session.$get(undefined, {
    fetch: quietFetch,
    init: { signal: signal ?? null },
  });
  return readJson(response, sessionSchema);
}

export const sessionQueryOptions = queryOptions({
  queryKey: ['session'],
  queryFn: ({ signal }) => getSession(signal),
  // "not signed in" is an answer, not a failure to retry
  retry: (count, error) => !(isApiError(error) && error.status === 401) && count < 2,
  staleTime: 60_000,
});

export function useSession() {
  return useQuery(sessionQueryOptions);
}
