import { describe, expect, it } from 'vitest';
import { countNewer } from './newer-payments.ts';

const page = (ids: string[]) => ({ data: ids.map((id) => ({ id })), next_cursor: null, has_more: false });

describe('countNewer', () => {
  it('counts the rows before the newest one shown', () => {
    expect(countNewer(page(['p9', 'p8', 'p7', 'p6']), 'p7')).toEqual({ count: 2, more: false });
    expect(countNewer(page(['p7', 'p6']), 'p7')).toEqual({ count: 0, more: false });
  });

  it('says "more" when the newest one shown is not on the page at all', () => {
    expect(countNewer(page(['p9', 'p8']), 'p1')).toEqual({ count: 2, more: true });
  });
});
