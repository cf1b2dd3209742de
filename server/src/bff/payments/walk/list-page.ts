import type { Payment } from '@payments/shared';
import type { ListOrder } from '../../../config/settings.ts';
import type { UpstreamFailure } from '../../../upstream/index.ts';
import type { UpstreamFilters } from './checkpoints.ts';
import type { CompanyReader, CompanyWalk, KeptRow, Position } from './company-reader.ts';
import { direction, type RowKey } from './row-key.ts';

/**
 * One company's place in a list of one or several companies: its position (null once its list has ended), the
 * upstream filters its cursor belongs to, and the key of its next row when known (a company whose next row is
 * known and comes later than the rows shown is not asked again for this page).
 */
export interface MemberPlace {
  company: string;
  filters: UpstreamFilters;
  position: Position | null;
  head?: RowKey | undefined;
}

export type ListPage =
  | { ok: true; rows: { record: Payment; company: string }[]; places: MemberPlace[]; attempts: number }
  | { ok: false; failure: UpstreamFailure; attempts: number; stale?: boolean }
  | { ok: 'too_wide'; attempts: number };

interface Loaded {
  rows: KeptRow[];
  /** Index into `rows` of the next row to show. */
  next: number;
  /** The page the rows are of, and the position after it (null: the member's list ends with it). */
  page: Position;
  after: Position | null;
}

/**
 * The next page of a list merged from its members' lists (one member: a company's list), at most `limit` rows,
 * in list order by `created_at`; ties keep each company's own order and break across companies by their order
 * in `places`. A member is read only when its next row may be the next to show, so a page costs requests for the
 * companies whose rows it shows, not for every company. Pages without a row to show are followed past, up to
 * `maxPages` upstream pages, so a page is empty only at the end of the list.
 */
export async function nextListPage(
  places: readonly MemberPlace[],
  parts: {
    read: CompanyReader;
    walkOf(place: MemberPlace): CompanyWalk;
    order: ListOrder;
    limit: number;
    maxPages: number;
  },
): Promise<ListPage> {
  const { compare } = direction(parts.order);
  const state = places.map((place) => ({ ...place, loaded: undefined as Loaded | undefined }));
  let attempts = 0;
  let pagesRead = 0;

  /**
   * Reads a member's pages from its position until it has a row to show or its list ends; 'too_wide' when the
   * request has read `maxPages` pages (the member then stands where it stopped).
   */
  const load = async (member: (typeof state)[number]): Promise<ListPage | 'too_wide' | undefined> => {
    while (member.position !== null) {
      if (pagesRead >= parts.maxPages) return 'too_wide';
      pagesRead += 1;
      const position = member.position;
      const read = await parts.read(parts.walkOf(member), position);
      attempts += read.attempts;
      if (!read.ok) return { ...read, attempts };
      const after = read.ended ? null : read.next;
      const first = read.rows[0];
      if (first) {
        const page = { ...(read.from ?? position), prev: undefined, checkpoint: undefined };
        member.loaded = { rows: read.rows, next: 0, page, after };
        member.head = first.key;
        member.position = { ...page, skip: first.index, head: first.key };
        return undefined;
      }
      member.position = after;
    }
    member.head = undefined;
    return undefined;
  };

  const rows: { record: Payment; company: string }[] = [];
  while (rows.length < parts.limit) {
    // Every live member whose next row is unknown is read (at once), so the earliest next row can be chosen.
    const unknown = state.filter((m) => m.position !== null && m.head === undefined);
    const outcomes = await Promise.all(unknown.map(load));
    const failure = outcomes.find((o) => o !== undefined && o !== 'too_wide');
    if (failure) return failure;
    // Too many pages without a row: what was found is shown, and the next request goes on from there.
    if (outcomes.includes('too_wide')) {
      if (rows.length === 0) return { ok: 'too_wide', attempts };
      break;
    }
    let first: (typeof state)[number] | undefined;
    for (const member of state) {
      if (member.position === null || member.head === undefined) continue;
      const at = member.head.at;
      const best = first?.head?.at;
      // Rows of no time (only kept without a period) go where their company's list puts them.
      if (!first || (at !== null && best !== null && best !== undefined && compare(at, best) < 0))
        first = member;
    }
    if (!first) break;
    if (!first.loaded) {
      const outcome = await load(first);
      if (outcome === 'too_wide') {
        if (rows.length === 0) return { ok: 'too_wide', attempts };
        break;
      }
      if (outcome) return outcome;
      continue;
    }
    const loaded = first.loaded;
    const row = loaded.rows[loaded.next] as KeptRow;
    rows.push({ record: row.record, company: first.company });
    loaded.next += 1;
    const following = loaded.rows[loaded.next];
    if (following) {
      first.head = following.key;
      first.position = { ...loaded.page, skip: following.index, head: following.key };
    } else {
      first.loaded = undefined;
      first.head = undefined;
      first.position = loaded.after;
    }
  }
  return {
    ok: true,
    rows,
    attempts,
    places: state.map(({ loaded: _loaded, ...place }) => place),
  };
}
