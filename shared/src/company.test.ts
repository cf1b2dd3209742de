import { describe, expect, it } from 'vitest';
import { companyTreeSchema, subtreeIds } from './company.ts';

const tree = [
  { id: 'root', name: 'Root', parent_id: null },
  { id: 'a', name: 'A', parent_id: 'root' },
  { id: 'a1', name: 'A1', parent_id: 'a' },
  { id: 'b', name: 'B', parent_id: 'root' },
];

describe('companies', () => {
  it('subtreeIds holds the company and all its descendants, nothing else', () => {
    expect([...subtreeIds(tree, 'a')].sort()).toEqual(['a', 'a1']);
    expect(subtreeIds(tree, 'root').size).toBe(4);
    expect(subtreeIds(tree, 'unknown').size).toBe(0);
  });

  it('a tree needs exactly one root, known parents and unique ids', () => {
    expect(companyTreeSchema.safeParse(tree).success).toBe(true);
    expect(companyTreeSchema.safeParse([...tree, { id: 'x', name: 'X', parent_id: null }]).success).toBe(
      false,
    );
    expect(companyTreeSchema.safeParse([...tree, { id: 'x', name: 'X', parent_id: 'nope' }]).success).toBe(
      false,
    );
    expect(companyTreeSchema.safeParse([...tree, { id: 'a', name: 'A again', parent_id: 'b' }]).success).toBe(
      false,
    );
  });
});
