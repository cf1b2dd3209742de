import { z } from 'zod/mini';
import { COMPANY_ID_PATTERN } from './rules.ts';

export const companyIdSchema = z.string().check(z.regex(COMPANY_ID_PATTERN, 'is not a company id'));

export const companySchema = z.object({
  id: companyIdSchema,
  name: z.string().check(z.minLength(1), z.maxLength(200)),
  parent_id: z.nullable(companyIdSchema),
});
export type Company = z.infer<typeof companySchema>;

/** A company tree as a flat list: exactly one root (`parent_id: null`), every other parent present. */
export const companyTreeSchema = z.array(companySchema).check(
  z.minLength(1),
  z.superRefine((companies, ctx) => {
    const ids = new Set(companies.map((c) => c.id));
    if (ids.size !== companies.length)
      ctx.issues.push({ code: 'custom', message: 'company ids must be unique', input: companies });
    const roots = companies.filter((c) => c.parent_id === null);
    if (roots.length !== 1)
      ctx.issues.push({
        code: 'custom',
        message: 'exactly one company must have parent_id null',
        input: companies,
      });
    for (const c of companies) {
      if (c.parent_id !== null && !ids.has(c.parent_id))
        ctx.issues.push({
          code: 'custom',
          message: `parent ${c.parent_id} of ${c.id} is not in the list`,
          input: companies,
        });
    }
  }),
);

/** The root of a tree that `companyTreeSchema` accepted: the company without a parent. */
export function rootCompany(companies: readonly Company[]): Company {
  const root = companies.find((c) => c.parent_id === null);
  if (!root) throw new Error('the company tree has no root');
  return root;
}

/** The ids of `rootId` and all its direct and indirect descendants. */
export function subtreeIds(companies: readonly Company[], rootId: string): Set<string> {
  const children = new Map<string, string[]>();
  for (const c of companies) {
    if (c.parent_id === null) continue;
    const list = children.get(c.parent_id) ?? [];
    list.push(c.id);
    children.set(c.parent_id, list);
  }
  const found = new Set<string>();
  const stack = companies.some((c) => c.id === rootId) ? [rootId] : [];
  while (stack.length > 0) {
    const id = stack.pop() as string;
    if (found.has(id)) continue;
    found.add(id);
    stack.push(...(children.get(id) ?? []));
  }
  return found;
}
