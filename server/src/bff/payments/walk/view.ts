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
  /** The filters the upstream applies. */
  filters: { status?: string | undefined; date_from?: string | undefined };
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
) {
  const choice = scope.choose(user, companyHeader);
  if (!choice.ok) return choice;
  const group = query.group === 'true';
  const view: View = {
    user,
    company: choice.companyId,
    group,
    members: group ? scope.group(user, choice.companyId) : [choice.companyId],
    filters: { status: query.status, date_from: query.date_from },
    date_to: query.date_to,
    currencies: query.currency?.split(','),
  };
  return { ok: true as const, view };
}
