/**
 * Asks the table to bring a row into view and focus it: the drawer, once closed, gives focus back to the row it
 * showed, which the virtualized table may not have drawn (a payment found pages down after a reload).
 */
type Listener = (index: number) => void;

const listeners = new Set<Listener>();

export function requestRowFocus(index: number): void {
  for (const listener of listeners) listener(index);
}

/** The table's side: `focusRow` scrolls to the row and focuses its link. Returns the unsubscribe. */
export function onRowFocusRequest(focusRow: Listener): () => void {
  listeners.add(focusRow);
  return () => listeners.delete(focusRow);
}
