import { type PaymentPage, paymentPageSchema } from '@payments/shared';
import { BACKGROUND_HEADER } from '@payments/shared/rules';
import { infiniteQueryOptions } from '@tanstack/react-query';
import { type AnswerSchema, bff, readJson } from '../../../lib/api-client.ts';
import { isApiError } from '../../../lib/api-error.ts';
import type { ListView } from '../view/list-view.ts';
import { paymentsQueryKey } from '../view/query-keys.ts';
import { companyHeader, filtersQuery, sortQuery } from '../view/view-request.ts';

/**
 * A page of the list; a group's also says which company each row is from (`company_ids`, parallel to `data`). A
 * sorted view's page says `as_of`: every row of the view was read at or after that time.
 */
export interface ListPage extends PaymentPage {
  company_ids?: string[];
  as_of?: string;
}

/**
 * The shared page schema, and a group's `company_ids` and a sorted view's `as_of` beside it: the shared schema
 * drops members it does not name, so the list of companies is checked here, as a list of ids as long as the page.
 */
export const listPageSchema: AnswerSchema<ListPage> = {
  safeParse(body) {
    const parsed = paymentPageSchema.safeParse(body);
    if (!parsed.success) return parsed;
    const asOf = (body as { as_of?: unknown }).as_of;
    const page = {
      success: true as const,
      data: typeof asOf === 'string' ? { ...parsed.data, as_of: asOf } : (parsed.data as ListPage),
    };
    const ids = (body as { company_ids?: unknown }).company_ids;
    if (ids === undefined) return page;
    if (
      Array.isArray(ids) &&
      ids.length === page.data.data.length &&
      ids.every((id) => typeof id === 'string')
    )
      return { success: true, data: { ...page.data, company_ids: ids as string[] } };
    const issue = {
      code: 'custom' as const,
      path: ['company_ids'],
      message: 'not parallel to data',
      input: ids,
    };
    return { success: false, error: { issues: [issue] } };
  },
};

/**
 * `GET /api/payments`: one page of the view, checked as an envelope with both its rules. `background`: asked by
 * the app itself (the freshness poll), which does not count as use for the session's idle timeout. `fresh`: a
 * Refresh's first page, never cut from a sorted view the BFF sorted before it was asked.
 */
export async function getPaymentsPage(
  view: ListView,
  cursor: string | null,
  signal?: AbortSignal,
  background = false,
  fresh = false,
): Promise<ListPage> {
  const response = await bff.api.payments.$get(
    {
      query: {
        limit: String(view.limit),
        ...filtersQuery(view),
        ...sortQuery(view),
        cursor: cursor ?? undefined,
        ...(fresh ? { fresh: 'true' as const } : {}),
      },
    },
    {
      headers: { ...companyHeader(view.company), ...(background ? { [BACKGROUND_HEADER]: '1' } : {}) },
      init: { signal: signal ?? null },
    },
  );
  return readJson(response, listPageSchema);
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
