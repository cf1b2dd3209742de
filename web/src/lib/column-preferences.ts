import { z } from 'zod';

/** Which columns a user turned on or off, kept across reloads in this browser. */
export type ColumnVisibility = Record<string, boolean>;

const STORAGE_KEY = 'payments-dashboard.columns.v1';
const storedSchema = z.record(z.string().max(200), z.boolean());

/** Stored choices, or none when absent, unreadable or written by an incompatible version. */
export function loadColumnVisibility(
  storage: Storage | undefined = globalThis.localStorage,
): ColumnVisibility {
  try {
    const raw = storage?.getItem(STORAGE_KEY);
    if (!raw) return {};
    const parsed = storedSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : {};
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
  return visibility[columnId] ?? knownColumn;
}
