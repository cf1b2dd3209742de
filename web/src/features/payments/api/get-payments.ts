import type { PaymentPage } from '@payments/shared';
import { COMPANY_HEADER } from '@payments/shared/rules';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { bff, readJson } from '../../../lib/api-client.ts';
import { isApiError } from '../../../lib/api-error.ts';
import { paymentPageAnswer } from '../../../lib/bff-answers.ts';
import type { ListView } from '../../../lib/list-search-params.ts';

/**
 * One pagination session: changing any of these starts a new one. `company: null` is the user's own company
 * (no `X-Company-Id`, as the BFF defines), so the first page can be asked for before the config is known.
 */
export interface PaymentsSession {
  company: string | null;
  status: string | null;
  dateFrom: string | null;
  limit: number;
}

/** The session a URL's view asks for. */
export function paymentsSessionOf(view: ListView): PaymentsSession {
  return { company: view.company, status: view.status, dateFrom: view.dateFrom, limit: view.limit };
}

/** The query of one page; absent filters are left out (undefined values are not sent). */
export function paymentsQuery(session: Omit<PaymentsSession, 'company'>, cursor: string | null) {
  return {
    limit: String(session.limit),
    status: session.status ?? undefined,
    date_from: session.dateFrom ?? undefined,
    cursor: cursor ?? undefined,
  };
}

/** `GET /api/payments`: one page of the session, checked as an envelope with both its rules. */
export async function getPaymentsPage(
  session: PaymentsSession,
  cursor: string | null,
  signal?: AbortSignal,
): Promise<PaymentPage> {
  const response = await bff.api.payments.$get(
    { query: paymentsQuery(session, cursor) },
    { headers: companyHeader(session.company), init: { signal: signal ?? null } },
  );
  return readJson(response, paymentPageAnswer);
}

export function companyHeader(company: string | null): Record<string, string> {
  return company === null ? {} : { [COMPANY_HEADER]: company };
}

export function paymentsQueryKey(session: PaymentsSession) {
  return ['payments', session.company, session.status, session.dateFrom, session.limit] as const;
}

export function paymentsQueryOptions(session: PaymentsSession) {
  return infiniteQueryOptions({
    queryKey: paymentsQueryKey(session),
    // Reading `signal` lets Query abort the request when the key changes and nobody watches the old session.
    queryFn: ({ pageParam, signal }) => getPaymentsPage(session, pageParam, signal),
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

export function usePayments(session: PaymentsSession) {
  return useInfiniteQuery(paymentsQueryOptions(session));
}
