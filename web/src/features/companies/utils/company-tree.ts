import type { Company } from '@payments/shared';

interface CompanyNode {
  company: Company;
  depth: number;
  /** Whether the node is shown only because a descendant matches the search. */
  context: boolean;
}

/**
 * The companies as a depth-first list with their depth, children sorted by name. A company whose parent the
 * user may not see becomes a root (the list may have holes).
 */
export function companyTree(companies: readonly Company[]): CompanyNode[] {
  const ids = new Set(companies.map((c) => c.id));
  const children = new Map<string | null, Company[]>();
  for (const company of companies) {
    const parent = company.parent_id !== null && ids.has(company.parent_id) ? company.parent_id : null;
    const list = children.get(parent) ?? [];
    list.push(company);
    children.set(parent, list);
  }
  for (const list of children.values()) list.sort((a, b) => a.name.localeCompare(b.name));
  const out: CompanyNode[] = [];
  const visited = new Set<string>();
  const visit = (company: Company, depth: number) => {
    if (visited.has(company.id)) return; // a cycle in bad data must not hang the page
    visited.add(company.id);
    out.push({ company, depth, context: false });
    for (const child of children.get(company.id) ?? []) visit(child, depth + 1);
  };
  for (const root of children.get(null) ?? []) visit(root, 0);
  return out;
}

/**
 * The tree narrowed to companies whose name or id contains `query` (case-insensitive), with their ancestors
 * kept (marked `context`) so each match is shown where it sits.
 */
export function filterCompanyTree(tree: readonly CompanyNode[], query: string): CompanyNode[] {
  const needle = query.trim().toLowerCase();
  if (needle === '') return [...tree];
  const keep: CompanyNode[] = [];
  const path: CompanyNode[] = [];
  const emitted = new Set<string>();
  for (const node of tree) {
    path.length = node.depth;
    path.push(node);
    const hit =
      node.company.name.toLowerCase().includes(needle) || node.company.id.toLowerCase().includes(needle);
    if (!hit) continue;
    for (const ancestor of path) {
      if (emitted.has(ancestor.company.id)) continue;
      emitted.add(ancestor.company.id);
      keep.push({ ...ancestor, context: ancestor !== node });
    }
  }
  return keep;
}

/** One thing the switcher offers: a company, or a company with its subsidiaries (`group`). */
export interface CompanyChoice {
  node: CompanyNode;
  group: boolean;
}

/**
 * What the switcher's arrow keys walk, in order: each company shown, and right after it the company with its
 * subsidiaries where it has any the user may see. Not for an ancestor shown only as context of a search match.
 */
export function companyChoices(
  shown: readonly CompanyNode[],
  companies: readonly Company[],
): CompanyChoice[] {
  const parents = new Set(companies.map((company) => company.parent_id));
  const choices: CompanyChoice[] = [];
  for (const node of shown) {
    choices.push({ node, group: false });
    if (!node.context && parents.has(node.company.id)) choices.push({ node, group: true });
  }
  return choices;
}
