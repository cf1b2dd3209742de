import type { ListOrder } from '../../../config/settings.ts';
import type { UpstreamFailure } from '../../../upstream/index.ts';
import { type Checkpoints, positionsFor, REPLANS } from './checkpoints.ts';
import type { CompanyReader, CompanyWalk, PageRead, Position } from './company-reader.ts';
import { direction, type RowKey, sameRow } from './row-key.ts';
import { WALK_PAGE_SIZE } from './walk-plan.ts';

/**
 * The upstream refused a cursor the BFF sent with the filters it was issued for: the cursor is too old (the spec
 * names no status, so any refusal of a cursor reads as one). A cursor used with other filters never leaves the BFF.
 */
const refusedCursor = (failure: UpstreamFailure) =>
  failure.code === 'cursor_mismatch' || failure.code === 'cursor_expired';

const gone = (detail: string): UpstreamFailure => ({ code: 'cursor_expired', status: 400, detail });

/**
 * A company reader that goes on where a refused upstream cursor stood: a list position knows the row it shows
 * next (`head`) or the last row of the page before (`prev`), and the row is found again from a fresh position,
 * the remembered one nearest above it or the top, reading at most `maxPages` pages. The page then read from there
 * says where it was read from (`from`), so that the list's next position holds the fresh cursor. When the row is
 * gone from the list, or too far, the failure is `cursor_expired` and the list starts over. Finding the row is a
 * walk: it takes one of the user's walk places (`enter`), or answers `rate_limited` when all are taken.
 */
export function resumingReader(
  read: CompanyReader,
  parts: {
    checkpoints: Checkpoints;
    order: ListOrder;
    maxPages: number;
    /** Takes a walk place for finding a row again (a walk); false when none is free. */
    enter: () => Promise<boolean>;
  },
): CompanyReader {
  const { compare } = direction(parts.order);
  const desc = parts.order === 'created_at_desc';

  /** The page of the company's list (under the walk's filters) holding `anchor`, found from a fresh start. */
  const find = async (walk: CompanyWalk, anchor: RowKey): Promise<Found> => {
    // The anchor is looked for among every row of a page (its keys), whatever the view keeps. Pages passed over
    // are a walk's, not the page a person waits for.
    const scan: CompanyWalk = { ...walk, cls: 'walk' };
    let attempts = 0;
    for (let replan = 0; replan <= REPLANS; replan++) {
      const near =
        anchor.at === null
          ? undefined
          : await positionsFor(replan, parts.checkpoints).nearest(
              walk.company,
              walk.filters,
              anchor.at,
              desc,
            );
      let position: Position | null = near
        ? {
            cursor: near.cursor,
            skip: 0,
            limit: WALK_PAGE_SIZE,
            head: near.next,
            prev: near.boundary,
            checkpoint: near,
          }
        : { cursor: null, skip: 0, limit: WALK_PAGE_SIZE };
      let stale = false;
      for (let pages = 0; position !== null && pages < parts.maxPages; pages++) {
        const page: PageRead = await read(scan, position);
        attempts += page.attempts;
        if (!page.ok) {
          stale = page.stale === true;
          if (stale) break;
          return { ok: false, failure: page.failure, attempts };
        }
        const index = page.keys.findIndex((key) => sameRow(key, anchor));
        if (index >= 0) return { ok: true, page, at: position, index, attempts };
        // Past the anchor's instant without meeting it: it is no longer in the list (a list the walk does not rely
        // on the order of is read to its end).
        const past = (key: RowKey) => key.at !== null && anchor.at !== null && compare(key.at, anchor.at) > 0;
        if (walk.ordered && page.keys.some(past)) return { ok: false, failure: gone(GONE), attempts };
        position = page.next;
      }
      if (!stale) return { ok: false, failure: gone(position === null ? GONE : TOO_FAR), attempts };
    }
    return { ok: false, failure: gone(GONE), attempts };
  };

  return async function readOn(walk: CompanyWalk, position: Position): Promise<PageRead> {
    const first = await read(walk, position);
    if (first.ok || position.cursor === null || position.checkpoint || !refusedCursor(first.failure))
      return first;
    const anchor = position.head ?? position.prev;
    if (anchor === undefined) return { ...first, failure: gone(GONE) };
    if (!(await parts.enter())) return { ok: false, failure: BUSY, attempts: first.attempts };
    const found = await find(walk, anchor);
    const attempts = first.attempts + found.attempts;
    if (!found.ok) return { ok: false, failure: found.failure, attempts };
    // `head` is the row to show next: from it. `prev` is the last row of the page before: from the row after it.
    const skip = position.head !== undefined ? found.index : found.index + 1;
    const from: Position = {
      cursor: found.at.cursor,
      skip,
      limit: found.at.limit,
      head: found.page.keys[skip],
    };
    return { ...found.page, rows: found.page.rows.filter((row) => row.index >= skip), attempts, from };
  };
}

type Found =
  | { ok: true; page: PageRead & { ok: true }; at: Position; index: number; attempts: number }
  | { ok: false; failure: UpstreamFailure; attempts: number };

const BUSY: UpstreamFailure = {
  code: 'rate_limited',
  status: 503,
  detail:
    'your other counts, searches or downloads take every place a list needs to find its position again; try again shortly',
  retryAfterSeconds: 5,
};
const GONE =
  'the payment this list stood at is gone from the payments service; start again from the first page';
const TOO_FAR =
  'the payment this list stood at lies too far down to find again; start again from the first page';
