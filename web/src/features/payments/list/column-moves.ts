import type { ColumnLayout } from '../fields/column-layout.ts';

/** The columns as the table has them: every one in its order, and the visible ones of each side, as drawn. */
export interface ColumnPlaces {
  /** Every column's id, in the table's order (the user's order, then the rest). */
  all: readonly string[];
  pinned: readonly string[];
  center: readonly string[];
}

/** `order` with `id` taken out and put back just before `target`, or just after it. */
function placeBeside(order: readonly string[], id: string, target: string, after: boolean): string[] {
  const rest = order.filter((other) => other !== id);
  const at = rest.indexOf(target);
  if (at < 0) return [...order];
  rest.splice(after ? at + 1 : at, 0, id);
  return rest;
}

/**
 * A column dropped onto another's header: it takes that column's place, on its side (a column dropped among the
 * pinned ones is pinned, one dropped among the others is no longer). Moving towards the end, it goes after it.
 */
export function dropColumn(
  layout: ColumnLayout,
  places: ColumnPlaces,
  id: string,
  target: string,
): ColumnLayout {
  if (id === target) return layout;
  const drawn = [...places.pinned, ...places.center];
  const after = drawn.indexOf(id) < drawn.indexOf(target);
  if (places.pinned.includes(target)) {
    const pinned = layout.pinned.includes(id) ? layout.pinned : [...layout.pinned, id];
    return { ...layout, pinned: placeBeside(pinned, id, target, after) };
  }
  return {
    ...layout,
    pinned: layout.pinned.filter((other) => other !== id),
    order: placeBeside(places.all, id, target, after),
  };
}

/** The column next to `id` on its side (pinned or not), one step towards the start (-1) or the end (+1). */
export function neighbour(places: ColumnPlaces, id: string, step: -1 | 1): string | undefined {
  const side = places.pinned.includes(id) ? places.pinned : places.center;
  const at = side.indexOf(id);
  return at < 0 ? undefined : side[at + step];
}

/** "Move left" / "Move right": the column swaps places with its neighbour on its side. */
export function moveColumn(
  layout: ColumnLayout,
  places: ColumnPlaces,
  id: string,
  step: -1 | 1,
): ColumnLayout {
  const target = neighbour(places, id, step);
  return target === undefined ? layout : dropColumn(layout, places, id, target);
}

/** Pins a column at the end of the pinned ones, or unpins it (it goes back to its place among the others). */
export function togglePinned(layout: ColumnLayout, id: string): ColumnLayout {
  return layout.pinned.includes(id)
    ? { ...layout, pinned: layout.pinned.filter((other) => other !== id) }
    : { ...layout, pinned: [...layout.pinned, id] };
}
