import { COMPANY_ID_PATTERN, type Company, subtreeIds } from '@payments/shared';
import { type AuthUser, allowedCompanyIds } from '../../auth/index.ts';

export type CompanyChoice =
  | { ok: true; companyId: string }
  | { ok: false; code: 'invalid_parameter' | 'forbidden_company'; status: 400 | 403; detail: string };

/** Per-user scope, computed once per user object (the store keeps its objects for the process's life). */
export function createCompanyScope(companies: readonly Company[], ownCompanyId: string) {
  const cache = new WeakMap<AuthUser, Set<string>>();
  const allowed = (user: AuthUser): Set<string> => {
    let ids = cache.get(user);
    if (!ids) {
      ids = allowedCompanyIds(user, companies);
      cache.set(user, ids);
    }
    return ids;
  };

  /** The company used when the request names none: the own company if allowed, else the first allowed one. */
  const defaultCompany = (user: AuthUser): string | undefined => {
    const ids = allowed(user);
    if (ids.has(ownCompanyId)) return ownCompanyId;
    return companies.find((company) => ids.has(company.id))?.id;
  };

  return {
    allowed,
    defaultCompany,
    /** A group headed by `head`: the head and every descendant the user may see, in the tree's order. */
    group(user: AuthUser, head: string): string[] {
      const ids = allowed(user);
      const subtree = subtreeIds(companies, head);
      return companies.filter((company) => subtree.has(company.id) && ids.has(company.id)).map((c) => c.id);
    },
    /** The user's companies; a parent the user may not see is hidden, so its child shows as a root. */
    visible(user: AuthUser): Company[] {
      const ids = allowed(user);
      return companies
        .filter((company) => ids.has(company.id))
        .map((company) =>
          company.parent_id !== null && !ids.has(company.parent_id)
            ? { ...company, parent_id: null }
            : company,
        );
    },
    /** Checks `X-Company-Id` against the user's scope before anything goes upstream. */
    choose(user: AuthUser, header: string | undefined): CompanyChoice {
      if (header === undefined) {
        const fallback = defaultCompany(user);
        return fallback === undefined
          ? { ok: false, code: 'forbidden_company', status: 403, detail: 'you have access to no company' }
          : { ok: true, companyId: fallback };
      }
      if (!COMPANY_ID_PATTERN.test(header))
        return {
          ok: false,
          code: 'invalid_parameter',
          status: 400,
          detail: 'X-Company-Id is not a company id',
        };
      if (!allowed(user).has(header))
        return {
          ok: false,
          code: 'forbidden_company',
          status: 403,
          detail: 'you do not have access to this company',
        };
      return { ok: true, companyId: header };
    },
  };
}

export type CompanyScope = ReturnType<typeof createCompanyScope>;
