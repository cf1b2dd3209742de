import { describe, expect, it } from 'vitest';
import { DEFAULT_COLUMN_LAYOUT } from '../fields/column-layout.ts';
import { type ColumnPlaces, dropColumn, moveColumn, togglePinned } from './column-moves.ts';

const places: ColumnPlaces = {
  all: ['id', 'created_at', 'status', 'amount', 'currency'],
  pinned: ['id'],
  // `status` is hidden: moves step over it
  center: ['created_at', 'amount', 'currency'],
};

describe('moving a column', () => {
  it('swaps it with its visible neighbour, over hidden columns, in the full order', () => {
    const moved = moveColumn(DEFAULT_COLUMN_LAYOUT, places, 'amount', -1);
    expect(moved.order).toEqual(['id', 'amount', 'created_at', 'status', 'currency']);
    expect(moveColumn(DEFAULT_COLUMN_LAYOUT, places, 'created_at', 1).order).toEqual([
      'id',
      'status',
      'amount',
      'created_at',
      'currency',
    ]);
  });

  it('stays on its side: the first unpinned column does not move into the pinned ones', () => {
    expect(moveColumn(DEFAULT_COLUMN_LAYOUT, places, 'created_at', -1)).toBe(DEFAULT_COLUMN_LAYOUT);
    expect(moveColumn(DEFAULT_COLUMN_LAYOUT, places, 'currency', 1)).toBe(DEFAULT_COLUMN_LAYOUT);
  });

  it('reorders the pinned columns among themselves', () => {
    const layout = { ...DEFAULT_COLUMN_LAYOUT, pinned: ['id', 'amount'] };
    const twoPinned = { ...places, pinned: ['id', 'amount'], center: ['created_at', 'currency'] };
    expect(moveColumn(layout, twoPinned, 'amount', -1).pinned).toEqual(['amount', 'id']);
  });
});

describe('dropping a header on another', () => {
  it('pins a column dropped among the pinned ones and unpins one dropped among the others', () => {
    const pinned = dropColumn(DEFAULT_COLUMN_LAYOUT, places, 'currency', 'id');
    expect(pinned.pinned).toEqual(['currency', 'id']);
    const back = dropColumn(
      pinned,
      { ...places, pinned: ['currency', 'id'], center: ['created_at', 'amount'] },
      'currency',
      'amount',
    );
    expect(back.pinned).toEqual(['id']);
    expect(back.order).toEqual(['id', 'created_at', 'status', 'amount', 'currency']);
  });
});

describe('pinning', () => {
  it('adds a column after the pinned ones, and takes it out again', () => {
    const pinned = togglePinned(DEFAULT_COLUMN_LAYOUT, 'amount');
    expect(pinned.pinned).toEqual(['id', 'amount']);
    expect(togglePinned(pinned, 'amount').pinned).toEqual(['id']);
  });
});
