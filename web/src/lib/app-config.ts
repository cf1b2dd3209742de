import { appConfigSchema } from '@payments/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { bff, readJson } from './api-client.ts';

/**
 * `GET /api/config`: environment, time zone, amount unit, companies and statuses for the signed-in user. Every
 * screen behind sign-in draws from it, so it lives in lib rather than in one feature.
 */
async function getAppConfig(signal?: AbortSignal) {
  return readJson(
    await bff.api.config.$get(undefined, { init: { signal: signal ?? null } }),
    appConfigSchema,
  );
}

export const appConfigQueryOptions = queryOptions({
  queryKey: ['config'],
  queryFn: ({ signal }) => getAppConfig(signal),
  staleTime: 5 * 60_000,
});

/** `enabled: false` until the session is known: a signed-out visitor is not asked for the config. */
export function useAppConfig(enabled = true) {
  return useQuery({ ...appConfigQueryOptions, enabled });
}
