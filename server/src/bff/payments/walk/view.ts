import type { AmountUnit, Payment } from '@payments/shared';
import type { AuthUser } from '../../auth/index.ts';
import type { CompanyScope } from './company-scope.ts';

/** What a list, a summary or an export is of: whose, which companies, which filters. */
export interface View {
  user: AuthUser;
  /** The company X-Company-Id names (checked against the user's scope), or the user's default. */
  company: string;
  group: boolean;
  /** The companies the view holds: the company alone, or the group's members the user may see. */
  members: string[];
  /** The filters the upstream may apply: a status only when the view has exactly one. */
  filters: { status?: string | undefined; date_from?: string | undefined };
  /** Every status the view keeps (one or several); undefined keeps every row. */
  statuses: readonly string[] | undefined;
  /** Inclusive amount bounds in major units of the row's own currency, applied by the BFF. */
  amount: { min: string | undefined; max: string | undefined; unit: AmountUnit } | undefined;
  /** What a search looks for: its figures are of the matches only (summary). */
  search?: { q: string; matches: (record: Payment) => boolean } | undefined;
  /** The inclusive end the BFF applies (the upstream has none). */
  date_to: string | undefined;
  /** The currencies the BFF keeps (the upstream cannot filter them); undefined keeps every row. */
  currencies: readonly string[] | undefined;
}

type ViewQuery = {
  group?: 'true' | 'false' | undefined;
  status?: string | undefined;
  date_from?: string | undefined;
  date_to?: string | undefined;
  currency?: string | undefined;
  amount_min?: string | undefined;
  amount_max?: string | undefined;
};

/**
 * The view a request asks for, its company checked against the user's scope before anything goes upstream; or
 * why not, for the route to answer as a problem.
 */
export function viewOf(
  user: AuthUser,
  companyHeader: string | undefined,
  scope: CompanyScope,
  query: ViewQuery,
  how: { amountUnit: AmountUnit },
) {
  const choice = scope.choose(user, companyHeader);
  if (!choice.ok) return choice;
  const group = query.group === 'true';
  const statuses = query.status?.split(',');
  const ranged = query.amount_min !== undefined || query.amount_max !== undefined;
  const view: View = {
    user,
    company: choice.companyId,
    group,
    members: group ? scope.group(user, choice.companyId) : [choice.companyId],
    // Several statuses are one unfiltered walk kept here: see companyWalk.
    filters: { status: statuses?.length === 1 ? statuses[0] : undefined, date_from: query.date_from },
    statuses,
    amount: ranged ? { min: query.amount_min, max: query.amount_max, unit: how.amountUnit } : undefined,
    date_to: query.date_to,
    currencies: query.currency?.split(','),
  };
  return { ok: true as const, view };
}
