import { describe, expect, it } from 'vitest';
import { companyChoices, companyTree, filterCompanyTree } from './company-tree.ts';

const companies = [
  { id: 'root', name: 'Acme Group', parent_id: null },
  { id: 'eu', name: 'Acme Europe', parent_id: 'root' },
  { id: 'fr', name: 'Acme France', parent_id: 'eu' },
  { id: 'de', name: 'Acme Germany', parent_id: 'eu' },
  { id: 'us', name: 'Acme Americas', parent_id: 'root' },
];

const shape = (nodes: ReturnType<typeof companyTree>) =>
  nodes.map((n) => `${'-'.repeat(n.depth)}${n.company.id}`);

describe('company tree', () => {
  it('lists depth-first with children sorted by name', () => {
    expect(shape(companyTree(companies))).toEqual(['root', '-us', '-eu', '--fr', '--de']);
  });

  it('shows a company whose parent is not visible as a root', () => {
    const holes = companies.filter((c) => c.id !== 'eu' && c.id !== 'root');
    expect(shape(companyTree(holes))).toEqual(['us', 'fr', 'de']);
  });

  it('search keeps matches and their ancestors, marking the ancestors as context', () => {
    const found = filterCompanyTree(companyTree(companies), 'fran');
    expect(shape(found)).toEqual(['root', '-eu', '--fr']);
    expect(found.map((n) => n.context)).toEqual([true, true, false]);
  });

  it('search matches ids too and is case-insensitive', () => {
    expect(shape(filterCompanyTree(companyTree(companies), 'DE'))).toEqual(['root', '-eu', '--de']);
  });

  it('an empty search keeps the whole tree; a search without hits keeps nothing', () => {
    expect(filterCompanyTree(companyTree(companies), '  ')).toHaveLength(5);
    expect(filterCompanyTree(companyTree(companies), 'zzz')).toEqual([]);
  });

  it('survives a parent cycle in bad data', () => {
    const cyclic = [
      { id: 'a', name: 'A', parent_id: 'b' },
      { id: 'b', name: 'B', parent_id: 'a' },
    ];
    expect(companyTree(cyclic)).toEqual([]);
  });

  it('offers each company with subsidiaries also as a group, right after the company itself', () => {
    const choices = companyChoices(companyTree(companies), companies);
    expect(choices.map((c) => `${c.node.company.id}${c.group ? '+' : ''}`)).toEqual([
      'root',
      'root+',
      'us',
      'eu',
      'eu+',
      'fr',
      'de',
    ]);
  });

  it('offers no group for an ancestor shown only as the context of a match', () => {
    const found = filterCompanyTree(companyTree(companies), 'europe');
    expect(companyChoices(found, companies).map((c) => `${c.node.company.id}${c.group ? '+' : ''}`)).toEqual([
      'root',
      'eu',
      'eu+',
    ]);
  });
});
