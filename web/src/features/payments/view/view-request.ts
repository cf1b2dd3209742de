import { COMPANY_HEADER } from '@payments/shared/rules';
import type { ListView } from './list-view.ts';

/**
 * The filters of a view as the BFF names them, for the list, the summary, the search and the export alike; absent
 * ones are left out (undefined values are not sent).
 */
export function filtersQuery(view: ListView) {
  return {
    status: view.statuses.length === 0 ? undefined : view.statuses.join(','),
    date_from: view.dateFrom ?? undefined,
    date_to: view.dateTo ?? undefined,
    group: view.group ? ('true' as const) : undefined,
    currency: view.currencies.length === 0 ? undefined : view.currencies.join(','),
    amount_min: view.amountMin ?? undefined,
    amount_max: view.amountMax ?? undefined,
  };
}

/** `company: null` is the user's own company (no `X-Company-Id`, as the BFF defines). */
export function companyHeader(company: string | null): Record<string, string> {
  return company === null ? {} : { [COMPANY_HEADER]: company };
}

/** The order of the list (and of its export) as the BFF names it; the default order is not sent. */
export function sortQuery(view: ListView) {
  return view.sort === null ? {} : { sort: view.sort };
}
