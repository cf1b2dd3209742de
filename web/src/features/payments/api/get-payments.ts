import { type PaymentPage, paymentPageSchema } from '@payments/shared';
import { COMPANY_HEADER } from '@payments/shared/rules';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { bff, readJson } from '../../../lib/api-client.ts';
import { isApiError } from '../../../lib/api-error.ts';
import type { ListView } from '../utils/list-search-params.ts';

/** The query of one page; absent filters are left out (undefined values are not sent). */
function paymentsQuery(view: Omit<ListView, 'company'>, cursor: string | null) {
  return {
    limit: String(view.limit),
    status: view.status ?? undefined,
    date_from: view.dateFrom ?? undefined,
    cursor: cursor ?? undefined,
  };
}

/** `GET /api/payments`: one page of the view, checked as an envelope with both its rules. */
async function getPaymentsPage(
  view: ListView,
  cursor: string | null,
  signal?: AbortSignal,
): Promise<PaymentPage> {
  const response = await bff.api.payments.$get(
    { query: paymentsQuery(view, cursor) },
    { headers: companyHeader(view.company), init: { signal: signal ?? null } },
  );
  return readJson(response, paymentPageSchema);
}

/** `company: null` is the user's own company (no `X-Company-Id`, as the BFF defines). */
export function companyHeader(company: string | null): Record<string, string> {
  return company === null ? {} : { [COMPANY_HEADER]: company };
}

/** One pagination session per view: changing any of its values starts a new one. */
export function paymentsQueryKey(view: ListView) {
  return ['payments', view.company, view.status, view.dateFrom, view.limit] as const;
}

export function paymentsQueryOptions(view: ListView) {
  return infiniteQueryOptions({
    queryKey: paymentsQueryKey(view),
    // Reading `signal` lets Query abort the request when the key changes and nobody watches the old session.
    queryFn: ({ pageParam, signal }) => getPaymentsPage(view, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => (last.has_more ? last.next_cursor : undefined),
    // Pages are a snapshot walked by cursor: re-fetching all of them on focus would cost N calls and could
    // reorder rows under the user. "Refresh" starts a new session instead.
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
    // The BFF already retries the upstream's transient failures, so only a lost connection is tried again
    // here; anything else shows at once with its own "Retry".
    retry: (count, error) => isApiError(error) && error.code === 'network_error' && count < 1,
  });
}

export function usePayments(view: ListView) {
  return useInfiniteQuery(paymentsQueryOptions(view));
}
