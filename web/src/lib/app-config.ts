import { queryOptions, useQuery } from '@tanstack/react-query';
import { bff, readJson } from './api-client.ts';
import { appConfigAnswer } from './bff-answers.ts';

/**
 * `GET /api/config`: environment, time zone, companies and statuses for the signed-in user. Shared by every
 * feature, so it lives in lib rather than in one feature.
 */
export async function getAppConfig(signal?: AbortSignal) {
  return readJson(
    await bff.api.config.$get(undefined, { init: { signal: signal ?? null } }),
    appConfigAnswer,
  );
}

export const appConfigQueryOptions = queryOptions({
  queryKey: ['config'],
  queryFn: ({ signal }) => getAppConfig(signal),
  staleTime: 5 * 60_000,
});

export function useAppConfig() {
  return useQuery(appConfigQueryOptions);
}
