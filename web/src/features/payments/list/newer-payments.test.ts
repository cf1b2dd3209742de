import { describe, expect, it } from 'vitest';
import { rowIdentity } from './merge-rows.ts';
import { countNewer } from './newer-payments.ts';

const page = (ids: string[]) => ({ data: ids.map((id) => ({ id })), next_cursor: null, has_more: false });
/** The identity of a row of `page` (no company named). */
const row = (id: string) => rowIdentity({ id }, undefined);

describe('countNewer', () => {
  it('counts the rows before the newest one shown', () => {
    expect(countNewer(page(['p9', 'p8', 'p7', 'p6']), row('p7'))).toEqual({ count: 2, more: false });
    expect(countNewer(page(['p7', 'p6']), row('p7'))).toEqual({ count: 0, more: false });
  });

  it('says "more" when the newest one shown is not on the page at all', () => {
    expect(countNewer(page(['p9', 'p8']), row('p1'))).toEqual({ count: 2, more: true });
  });

  it("in a group, finds the newest row shown by its company too, past another company's payment of that id", () => {
    const group = { ...page(['1', '1', '2']), company_ids: ['acme-us', 'acme-eu', 'acme-eu'] };
    expect(countNewer(group, rowIdentity({ id: '1' }, 'acme-eu'))).toEqual({ count: 1, more: false });
  });

  it('in a view that was empty, counts every row of the page as new', () => {
    expect(countNewer(page(['p2', 'p1']), null)).toEqual({ count: 2, more: false });
    expect(countNewer({ ...page(['p2']), has_more: true }, null)).toEqual({ count: 1, more: true });
    expect(countNewer(page([]), null)).toEqual({ count: 0, more: false });
  });
});
