import type { PaymentPage } from '@payments/shared';
import { describe, expect, it } from 'vitest';
import { createRowMerger, rowIdentity } from './merge-rows.ts';

const page = (ids: Array<string | number>, more = true): PaymentPage => ({
  data: ids.map((id) => ({ id, status: 'COMPLETED' })),
  next_cursor: more ? 'c' : null,
  has_more: more,
});

const mergeRows = (pages: PaymentPage[]) => createRowMerger()(pages);

describe('merging loaded pages into rows', () => {
  it('keeps page order and drops later copies of an id', () => {
    const { rows } = mergeRows([page(['a', 'b', 'c']), page(['c', 'd']), page(['b', 'e'], false)]);
    expect(rows.map((r) => r.id)).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('treats a numeric id and its string form as the same row', () => {
    expect(mergeRows([page([1, 2]), page(['2', 3])]).rows.map((r) => r.id)).toEqual([1, 2, 3]);
  });

  it('collects unknown fields and seen statuses in order of first appearance', () => {
    const merged = mergeRows([
      {
        data: [
          { id: 'a', status: 'SETTLED', fee: 3 },
          { id: 'b', status: 'COMPLETED', fx: { rate: 1 } },
          { id: 'c', status: { code: 7 } },
        ],
        next_cursor: null,
        has_more: false,
      },
    ]);
    expect(merged.extraFields).toEqual(['fee', 'fx']);
    expect(merged.statuses).toEqual(['SETTLED', 'COMPLETED']);
  });

  it('merges nothing into nothing', () => {
    expect(mergeRows([])).toEqual({ rows: [], companyIds: [], keys: [], extraFields: [], statuses: [] });
  });

  it('gives the same rows as a fresh merge when pages are appended, and starts over when they are not', () => {
    const merge = createRowMerger();
    const p1 = page(['a', 'b']);
    const p2 = page(['b', 'c']);
    const p3 = page(['d'], false);
    expect(merge([p1]).rows.map((r) => r.id)).toEqual(['a', 'b']);
    const first = merge([p1, p2]);
    const second = merge([p1, p2, p3]);
    expect(second.rows.map((r) => r.id)).toEqual(mergeRows([p1, p2, p3]).rows.map((r) => r.id));
    expect(second.rows).not.toBe(first.rows);
    expect(merge([p3]).rows.map((r) => r.id)).toEqual(['d']);
  });

  it("keeps each row's company from a group's pages beside it, the first copy's when a row repeats", () => {
    const merged = createRowMerger()([
      { ...page(['a', 'b']), company_ids: ['acme', 'acme-eu'] },
      { ...page(['b', 'c'], false), company_ids: ['acme-eu', 'acme-jp'] },
    ]);
    expect(merged.rows.map((r) => r.id)).toEqual(['a', 'b', 'c']);
    expect(merged.companyIds).toEqual(['acme', 'acme-eu', 'acme-jp']);
  });

  it('keeps every row of a group whose companies each number their payments 1, 2, 3', () => {
    const merged = createRowMerger()([
      { ...page([1, 1, 2]), company_ids: ['acme-eu', 'acme-us', 'acme-eu'] },
      { ...page(['2', 3, 3], false), company_ids: ['acme-us', 'acme-eu', 'acme-us'] },
    ]);
    expect(merged.rows.map((r) => r.id)).toEqual([1, 1, 2, '2', 3, 3]);
    expect(merged.companyIds).toEqual(['acme-eu', 'acme-us', 'acme-eu', 'acme-us', 'acme-eu', 'acme-us']);
    expect(new Set(merged.keys).size).toBe(6);
  });

  it('tells rows apart by their company where no page names it, from their own company_id', () => {
    const merged = mergeRows([
      {
        data: [
          { id: 1, company_id: 'acme-eu' },
          { id: 1, company_id: 'acme-us' },
          { id: '1', company_id: 'acme-eu' },
        ],
        next_cursor: null,
        has_more: false,
      },
    ]);
    expect(merged.rows).toEqual([
      { id: 1, company_id: 'acme-eu' },
      { id: 1, company_id: 'acme-us' },
    ]);
  });
});

describe('row identity', () => {
  it('is the company and the id together, and no company can run into the id', () => {
    expect(rowIdentity({ id: 7 }, 'acme')).toBe(rowIdentity({ id: '7' }, 'acme'));
    expect(rowIdentity({ id: 7 }, 'acme')).not.toBe(rowIdentity({ id: 7 }, 'acme-eu'));
    expect(rowIdentity({ id: '1:x' }, 'a')).not.toBe(rowIdentity({ id: 'x' }, 'a:1'));
    expect(rowIdentity({ id: 7, company_id: 'acme' }, undefined)).toBe(rowIdentity({ id: 7 }, 'acme'));
  });
});
