/**
 * React keys for the rows a virtualized list renders, chosen so that scrolling reuses row elements instead of
 * creating new ones: a row that enters the view takes the key (and so the DOM element) of one that left. Creating
 * a few dozen table rows per frame costs far more in style and layout than rewriting the text of existing ones.
 *
 * Two rules keep this invisible to users:
 * - A pinned row (the one holding focus) keeps its key, so the focused element never shows another row: while the
 *   row is rendered its element stays, and once it leaves the view its key is retired, not given to another row
 *   (the element goes, as any row's element did before keys were reused).
 * - Keys are handed out in the order of the previous render, so React never has to move an element to keep the
 *   DOM in row order (a move re-inserts the element: it costs as much as a new one and drops focus).
 */
export interface RowKeyInput {
  /** Stable identity of the row's data (its rowIdentity: company and payment id). */
  id: string;
  pinned: boolean;
}

export function createRowKeys(): (rows: readonly RowKeyInput[]) => string[] {
  let previous: string[] = [];
  let keyOfRow = new Map<string, string>();
  let pinnedKeys = new Map<string, string>(); // row id → key, for the rows pinned last time
  let fresh = 0;

  return (rows) => {
    const oldPosition = new Map(previous.map((key, position) => [key, position]));
    // A pinned row keeps the key it had, provided the pinned keys stay in the previous render's order.
    const fixed: (string | undefined)[] = [];
    let lastFixed = -1;
    for (const row of rows) {
      const key = row.pinned ? keyOfRow.get(row.id) : undefined;
      const position = key === undefined ? undefined : oldPosition.get(key);
      if (key !== undefined && position !== undefined && position > lastFixed) {
        fixed.push(key);
        lastFixed = position;
      } else {
        fixed.push(undefined);
      }
    }
    const taken = new Set(fixed.filter((key) => key !== undefined));
    const present = new Set(rows.map((row) => row.id));
    for (const [id, key] of pinnedKeys) if (!present.has(id)) taken.add(key); // retired with its row

    const keys: string[] = new Array(rows.length);
    let low = 0; // the next old position the rows before the next pinned row may reuse
    let start = 0;
    for (let i = 0; i <= rows.length; i++) {
      const key = i < rows.length ? fixed[i] : undefined;
      if (i < rows.length && key === undefined) continue;
      // rows start..i-1 lie between two pinned rows: they reuse the old keys found between those, in order
      const high = key === undefined ? previous.length : (oldPosition.get(key) as number);
      let next = low;
      for (let r = start; r < i; r++) {
        while (next < high && taken.has(previous[next] as string)) next++;
        keys[r] = next < high ? (previous[next++] as string) : `r${fresh++}`;
      }
      if (key !== undefined) keys[i] = key;
      low = high + 1;
      start = i + 1;
    }

    previous = keys;
    keyOfRow = new Map(rows.map((row, i) => [row.id, keys[i] as string]));
    pinnedKeys = new Map(
      rows.flatMap((row, i) => (row.pinned ? [[row.id, keys[i] as string] as const] : [])),
    );
    return keys;
  };
}
