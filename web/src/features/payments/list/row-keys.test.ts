import { describe, expect, it } from 'vitest';
import { createRowKeys, type RowKeyInput } from './row-keys.ts';

/** The rows a view from `from` to `to` renders; `pinned` are the indexes holding focus. */
const window = (from: number, to: number, pinned: readonly number[] = []): RowKeyInput[] =>
  Array.from({ length: to - from }, (_, i) => ({ id: `p${from + i}`, pinned: pinned.includes(from + i) }));

/** True when the keys both renders share appear in the same relative order (React then moves no element). */
function sameOrder(before: readonly string[], after: readonly string[]): boolean {
  const position = new Map(before.map((key, i) => [key, i]));
  const shared = after.filter((key) => position.has(key)).map((key) => position.get(key) as number);
  return shared.every((p, i) => i === 0 || p > (shared[i - 1] as number));
}

describe('createRowKeys', () => {
  it('gives every rendered row a distinct key', () => {
    const keys = createRowKeys()(window(0, 40));
    expect(new Set(keys).size).toBe(40);
  });

  it('reuses the keys of rows that left for rows that entered, so no element is created while scrolling', () => {
    const keysOf = createRowKeys();
    const first = keysOf(window(0, 40));
    const scrolled = keysOf(window(28, 68));
    expect(new Set(scrolled)).toEqual(new Set(first));
    const jumped = keysOf(window(15_000, 15_040));
    expect(new Set(jumped)).toEqual(new Set(first));
  });

  it('creates keys only for the rows beyond the previous count', () => {
    const keysOf = createRowKeys();
    const first = keysOf(window(0, 30));
    const grown = keysOf(window(10, 50));
    expect(grown.filter((key) => !first.includes(key))).toHaveLength(10);
  });

  it('keeps the key of a pinned row while it is rendered, and gives it to no other row once it has left', () => {
    const keysOf = createRowKeys();
    const first = keysOf(window(0, 40, [5]));
    const pinnedKey = first[5];
    const scrolled = keysOf(window(3, 43, [5]));
    expect(scrolled[2]).toBe(pinnedKey);
    const below = keysOf(window(100, 140));
    expect(below).not.toContain(pinnedKey);
    expect(new Set(below).size).toBe(40);
  });

  it('hands keys out in the previous order, so React never moves an element, scrolling either way', () => {
    const keysOf = createRowKeys();
    let previous = keysOf(window(200, 240, [230]));
    for (const [from, pinned] of [
      [180, [230]],
      [260, [230]],
      [100, [230]],
      [225, [230, 231]],
      [300, [231]],
      [0, []],
      [400, []],
    ] as const) {
      const next = keysOf(window(from, from + 40, pinned));
      expect(sameOrder(previous, next)).toBe(true);
      expect(new Set(next).size).toBe(next.length);
      previous = next;
    }
  });

  it('gives the same keys when called again with the same rows (a render React repeats)', () => {
    const keysOf = createRowKeys();
    keysOf(window(0, 40, [3]));
    const once = keysOf(window(50, 90, [3]));
    expect(keysOf(window(50, 90, [3]))).toEqual(once);
  });
});
