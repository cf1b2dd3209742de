/** Which columns a user turned on or off, kept across reloads in this browser. */
export type ColumnVisibility = Record<string, boolean>;

const STORAGE_KEY = 'payments-dashboard.columns.v1';

/** What this version writes: column ids (bounded) to booleans. Anything else was written by another version. */
function isColumnVisibility(value: unknown): value is ColumnVisibility {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  return Object.entries(value).every(([id, shown]) => id.length <= 200 && typeof shown === 'boolean');
}

/** Stored choices, or none when absent, unreadable or written by an incompatible version. */
export function loadColumnVisibility(
  storage: Storage | undefined = globalThis.localStorage,
): ColumnVisibility {
  try {
    const raw = storage?.getItem(STORAGE_KEY);
    if (!raw) return {};
    const parsed: unknown = JSON.parse(raw);
    return isColumnVisibility(parsed) ? parsed : {};
  } catch {
    return {}; // storage disabled or corrupt: the defaults still work
  }
}

export function saveColumnVisibility(
  visibility: ColumnVisibility,
  storage: Storage | undefined = globalThis.localStorage,
): void {
  try {
    storage?.setItem(STORAGE_KEY, JSON.stringify(visibility));
  } catch {
    // quota or privacy mode: the choice lasts for this page only
  }
}

/**
 * Whether a column shows: the user's stored choice wins; otherwise known columns show and fields discovered in
 * the data stay hidden until turned on.
 */
export function isColumnVisible(
  visibility: ColumnVisibility,
  columnId: string,
  knownColumn: boolean,
): boolean {
  // Own choices only: a field named like an Object.prototype member ("constructor") is not a stored choice.
  return Object.hasOwn(visibility, columnId) ? (visibility[columnId] as boolean) : knownColumn;
}
