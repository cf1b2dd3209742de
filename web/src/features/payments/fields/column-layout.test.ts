import { describe, expect, it } from 'vitest';
import { DEFAULT_COLUMN_LAYOUT, loadColumnLayout, saveColumnLayout } from './column-layout.ts';

describe('the column layout', () => {
  it('is kept per user: what one saves, the other does not read', () => {
    localStorage.clear();
    const layout = {
      visibility: { reference: false },
      order: ['amount', 'id'],
      sizing: { amount: 210 },
      pinned: [],
    };
    saveColumnLayout('ana', layout, localStorage);
    expect(loadColumnLayout('ana', localStorage)).toEqual(layout);
    expect(loadColumnLayout('ben', localStorage)).toBe(DEFAULT_COLUMN_LAYOUT);
  });

  it('falls back to the default when the stored value is unreadable or of another shape', () => {
    localStorage.clear();
    localStorage.setItem('payments-dashboard.columns.v2:ana', '{not json');
    expect(loadColumnLayout('ana', localStorage)).toBe(DEFAULT_COLUMN_LAYOUT);
    localStorage.setItem(
      'payments-dashboard.columns.v2:ana',
      JSON.stringify({ visibility: { amount: 'yes' } }),
    );
    expect(loadColumnLayout('ana', localStorage)).toBe(DEFAULT_COLUMN_LAYOUT);
    const tooNarrow = { visibility: {}, order: [], sizing: { amount: 1 }, pinned: [] };
    localStorage.setItem('payments-dashboard.columns.v2:ana', JSON.stringify(tooNarrow));
    expect(loadColumnLayout('ana', localStorage)).toBe(DEFAULT_COLUMN_LAYOUT);
  });

  it('pins the id by default, so each row keeps its link in view when the table scrolls sideways', () => {
    expect(DEFAULT_COLUMN_LAYOUT.pinned).toEqual(['id']);
  });
});
