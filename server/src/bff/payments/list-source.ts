import type { Payment, PaymentPage } from '@payments/shared';
import type { UpstreamResult } from '../../upstream/index.ts';
import type { AuthUser } from '../auth/index.ts';
import type { BffDeps } from '../bff-context.ts';
import { createGroupSource } from './group-merge.ts';

/** Upstream requests one merged page of a group may have in flight at once. */
const GROUP_CONCURRENCY = 4;

export interface ListSource {
  /** The page after `cursor` (the source's own cursor, as it gave it), with the request's filters. */
  fetchPage(cursor: string | undefined): Promise<UpstreamResult<PaymentPage>>;
  /** The company a row of a group's list is from; undefined for one company's list. */
  companyOf(record: Payment): string | undefined;
}

/**
 * The list a request walks: one company's list from the upstream, or a group's (the company and every descendant
 * the user may see) merged into one. The list, the export and the summary read both alike.
 */
export function listSource(
  deps: BffDeps,
  request: {
    user: AuthUser;
    company: string;
    group: boolean;
    limit: number;
    filters: { status?: string | undefined; date_from?: string | undefined };
    signal: AbortSignal;
    purpose: 'list' | 'export';
  },
): ListSource {
  const fetchCompany = (company: string, cursor: string | null | undefined) =>
    deps.upstream.listPayments(
      { limit: request.limit, cursor: cursor ?? undefined, ...request.filters },
      { companyId: company, signal: request.signal, purpose: request.purpose },
    );
  if (!request.group)
    return { fetchPage: (cursor) => fetchCompany(request.company, cursor), companyOf: () => undefined };
  const group = createGroupSource(deps.scope.group(request.user, request.company), {
    order: deps.listOrder,
    timeZone: deps.timeZone,
    limit: request.limit,
    concurrency: GROUP_CONCURRENCY,
    fetchPage: fetchCompany,
  });
  return { fetchPage: (cursor) => group.fetchPage(cursor), companyOf: group.companyOf };
}
