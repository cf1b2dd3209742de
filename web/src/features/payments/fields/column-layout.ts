import { z } from 'zod/mini';

/**
 * How a user laid the table out, kept per user in this browser: the columns turned on or off, their order, the
 * widths they were given and the ones pinned to the start. Absent entries mean "as the table has them".
 */
export interface ColumnLayout {
  visibility: Record<string, boolean>;
  /** Column ids in the order chosen; columns not named follow in the table's own order. */
  order: string[];
  /** Widths in CSS pixels, of the columns resized. */
  sizing: Record<string, number>;
  /** The columns pinned to the start, in their order: they stay in view while the table scrolls sideways. */
  pinned: string[];
}

/** The layout before any choice: the id pinned, so the link to each payment stays in view on narrow screens. */
export const DEFAULT_COLUMN_LAYOUT: ColumnLayout = { visibility: {}, order: [], sizing: {}, pinned: ['id'] };

const columnId = z.string().check(z.maxLength(200));
/** What this version writes; anything else was written by another version and is not read. */
const storedLayoutSchema = z.object({
  visibility: z.record(columnId, z.boolean()),
  order: z.array(columnId).check(z.maxLength(500)),
  sizing: z.record(columnId, z.number().check(z.gte(20), z.lte(2000))),
  pinned: z.array(columnId).check(z.maxLength(500)),
});

const STORAGE_PREFIX = 'payments-dashboard.columns.v2:';

/** One user's key: two people sharing a browser each keep their own layout. */
function storageKey(username: string): string {
  return `${STORAGE_PREFIX}${username}`;
}

/** The user's stored layout, or the default when absent, unreadable or written by an incompatible version. */
export function loadColumnLayout(
  username: string,
  storage: Storage | undefined = globalThis.localStorage,
): ColumnLayout {
  try {
    const raw = storage?.getItem(storageKey(username));
    if (!raw) return DEFAULT_COLUMN_LAYOUT;
    const parsed = storedLayoutSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : DEFAULT_COLUMN_LAYOUT;
  } catch {
    return DEFAULT_COLUMN_LAYOUT; // storage disabled or corrupt: the defaults still work
  }
}

export function saveColumnLayout(
  username: string,
  layout: ColumnLayout,
  storage: Storage | undefined = globalThis.localStorage,
): void {
  try {
    storage?.setItem(storageKey(username), JSON.stringify(layout));
  } catch {
    // quota or privacy mode: the layout lasts for this page only
  }
}

/**
 * The columns the table shows, in the order on screen, as the table last drew them: the export's "shown columns"
 * writes these. Null until a table was drawn on this page.
 */
let shown: readonly string[] | null = null;

export function noteShownColumns(ids: readonly string[]): void {
  shown = ids;
}

export function shownColumns(): readonly string[] | null {
  return shown;
}
