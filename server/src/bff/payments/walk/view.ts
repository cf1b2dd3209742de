import { COMPANY_HEADER } from '@payments/shared';
import type { Context } from 'hono';
import type { UpstreamFailure } from '../../../upstream/index.ts';
import type { AuthUser } from '../../auth/index.ts';
import type { BffEnv } from '../../bff-env.ts';
import { problemResponse } from '../../problem-response.ts';
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
 * the problem to answer.
 */
export function viewOf(c: Context<BffEnv>, scope: CompanyScope, query: ViewQuery) {
  const user = c.get('user');
  const choice = scope.choose(user, c.req.header(COMPANY_HEADER));
  if (!choice.ok)
    return { ok: false as const, response: problemResponse(c, choice.code, choice.status, choice.detail) };
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

/** An upstream failure as the problem the browser sees. */
export function upstreamProblem(c: Context<BffEnv>, failure: UpstreamFailure) {
  return problemResponse(c, failure.code, failure.status, failure.detail, {
    retryAfterSeconds: failure.retryAfterSeconds,
  });
}
