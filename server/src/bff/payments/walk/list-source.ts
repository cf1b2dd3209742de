import type { Payment, PaymentPage } from '@payments/shared';
import type { ListOrder, Settings } from '../../../config/settings.ts';
import type { UpstreamClient, UpstreamResult } from '../../../upstream/index.ts';
import type { CompanyScope } from './company-scope.ts';
import { createGroupSource } from './group-merge.ts';
import type { View } from './view.ts';

/** Upstream requests one merged page of a group may have in flight at once. */
const GROUP_CONCURRENCY = 4;

export interface ListSource {
  /** The page after `cursor` (the source's own cursor, as it gave it), with the view's filters. */
  fetchPage(cursor: string | undefined): Promise<UpstreamResult<PaymentPage>>;
  /** The company a row of a group's list is from; undefined for one company's list. */
  companyOf(record: Payment): string | undefined;
}

export interface SourceRequest {
  view: View;
  limit: number;
  signal: AbortSignal;
  purpose: 'list' | 'export';
}

/**
 * The lists a request walks: one company's list from the upstream, or a group's (the company and every descendant
 * the user may see) merged into one. The list, the export and the summary read both alike.
 */
export function createListSources(parts: {
  upstream: UpstreamClient;
  scope: CompanyScope;
  order: ListOrder;
  settings: Pick<Settings, 'PAYMENTS_TIME_ZONE'>;
}) {
  return (request: SourceRequest): ListSource => {
    const { view, limit, signal, purpose } = request;
    const fetchCompany = (company: string, cursor: string | null | undefined) =>
      parts.upstream.listPayments(
        { limit, cursor: cursor ?? undefined, ...view.filters },
        { companyId: company, signal, cls: purpose === 'list' ? 'page' : 'walk', user: view.user.username },
      );
    if (!view.group)
      return { fetchPage: (cursor) => fetchCompany(view.company, cursor), companyOf: () => undefined };
    const group = createGroupSource(view.members, {
      order: parts.order,
      timeZone: parts.settings.PAYMENTS_TIME_ZONE,
      limit,
      concurrency: GROUP_CONCURRENCY,
      fetchPage: fetchCompany,
    });
    return { fetchPage: (cursor) => group.fetchPage(cursor), companyOf: group.companyOf };
  };
}

export type ListSources = ReturnType<typeof createListSources>;
