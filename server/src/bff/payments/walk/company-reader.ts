import type { Payment } from '@payments/shared';
import type { ListOrder } from '../../../config/settings.ts';
import type { RequestClass, UpstreamClient, UpstreamFailure } from '../../../upstream/index.ts';
import type { Checkpoint, Checkpoints, UpstreamFilters } from './checkpoints.ts';
import type { CursorLifetime } from './cursor-lifetime.ts';
import { direction, keyOf, type RowKey, sameRow, timeText } from './row-key.ts';

/**
 * Where a company's walk stands: the upstream cursor of the page that holds its next row (null: the first page),
 * how many rows of that page are behind (`skip`), and the page size it was read with (a row's index means
 * nothing under another). `head` is the row expected at `skip`, checked when the page is read again; `prev` the
 * last row of the page before (with `skip` 0), which makes the page's cursor a checkpoint.
 */
export interface Position {
  cursor: string | null;
  skip: number;
  limit: number;
  head?: RowKey | undefined;
  prev?: RowKey | undefined;
  /** The remembered position this one came from: dropped when it proves wrong. */
  checkpoint?: Checkpoint | undefined;
  /** When the upstream issued `cursor` (the BFF's clock), when known: how old a cursor it takes is learned from it. */
  issuedAt?: number | undefined;
}

/** The instants a view keeps, inclusive; absent bounds are open. */
export interface Range {
  from?: number | undefined;
  to?: number | undefined;
}

/** One company's list as a walk reads it: what is asked of the upstream, and what is kept of its rows. */
export interface CompanyWalk {
  company: string;
  /** What the upstream filters; its cursors belong to exactly these. */
  filters: UpstreamFilters;
  range: Range;
  /** The walk relies on the list's order (to stop, merge or jump): pages against it are refused. */
  ordered: boolean;
  /** Rows kept beyond the range (a status the upstream was not asked to filter, a currency, a search). */
  keep?: ((record: Payment) => boolean) | undefined;
  cls: RequestClass;
  user: string;
  signal: AbortSignal;
  /** Counts the upstream attempts of the request the walk serves, for its log line, as they happen. */
  tally?: { attempts: number } | undefined;
  /** `performance.now()` when the walk began: it shares no upstream call, nor reuses a page, begun before. */
  notBefore?: number | undefined;
}

export interface KeptRow {
  record: Payment;
  key: RowKey;
  /** Its place in the page: a position inside the page is `{ ...position, skip: index }`. */
  index: number;
}

export type PageRead =
  | {
      ok: true;
      /** The rows of the page from `skip` on that lie in the range and are kept, in list order. */
      rows: KeptRow[];
      /** The walk is over: the range ended in this page, or the list did. */
      ended: boolean;
      /** The page after this one; null when the list ends. */
      next: Position | null;
      /** The key of every row of the page, kept or not (for positions inside it). */
      keys: RowKey[];
      attempts: number;
      /** Where the page was read from, when not the position asked (its cursor was refused: list-resume.ts). */
      from?: Position | undefined;
    }
  | { ok: false; failure: UpstreamFailure; attempts: number; stale?: boolean };

/**
 * Reads pages of companies' lists for walks: checks the list's order (the walk relies on it to stop and to
 * jump), keeps the rows of the range, remembers positions, and says when a remembered one proved wrong.
 */
export function createCompanyReader(parts: {
  upstream: UpstreamClient;
  checkpoints: Checkpoints;
  order: ListOrder;
  timeZone: string;
  lifetime?: CursorLifetime | undefined;
  now?: (() => number) | undefined;
}) {
  const { compare } = direction(parts.order);
  const now = parts.now ?? Date.now;

  /** A page against the list's order, named by the rows' places and times (never their ids or other values). */
  const outOfOrder = (
    walk: CompanyWalk,
    row: string,
    at: number,
    ahead: string,
    aheadAt: number,
  ): UpstreamFailure => ({
    code: 'upstream_bad_response',
    status: 502,
    detail: `the payments service listed ${walk.company}'s payments out of the order ${parts.order} it is configured with: ${row}.created_at ${timeText(at)} comes after ${ahead}.created_at ${timeText(aheadAt)}`,
  });

  return async function read(walk: CompanyWalk, position: Position): Promise<PageRead> {
    const result = await parts.upstream.listPayments(
      { limit: position.limit, cursor: position.cursor ?? undefined, ...walk.filters },
      {
        companyId: walk.company,
        signal: walk.signal,
        cls: walk.cls,
        user: walk.user,
        notBefore: walk.notBefore,
      },
    );
    const answeredAt = now();
    if (walk.tally) walk.tally.attempts += result.attempts;
    const refused = !result.ok && isCursorRefusal(result.failure.code);
    if (position.cursor !== null && position.issuedAt !== undefined && (result.ok || refused))
      parts.lifetime?.observe(position.issuedAt, refused);
    if (!result.ok) {
      // A remembered cursor the upstream no longer takes is forgotten; the walk starts without it.
      if (position.checkpoint && refused) {
        parts.checkpoints.drop(walk.company, walk.filters, position.checkpoint);
        return { ...result, stale: true };
      }
      return result;
    }
    const page = result.value;
    const keys = page.data.map((record) => keyOf(record, parts.timeZone));
    // Read again, a page may come back shorter than it was (the spec promises no page size): the rows from a
    // cursor are the same, so the ones to pass over go on into the pages after it.
    if (position.skip > 0 && position.skip >= keys.length) {
      const rest =
        page.next_cursor === null
          ? null
          : {
              ...position,
              cursor: page.next_cursor,
              skip: position.skip - keys.length,
              issuedAt: answeredAt,
            };
      return { ok: true, rows: [], ended: rest === null, next: rest, keys: [], attempts: result.attempts };
    }
    let skip = position.skip;
    const atSkip = keys[skip];
    if (position.head !== undefined && !(atSkip && sameRow(atSkip, position.head))) {
      if (position.checkpoint) {
        parts.checkpoints.drop(walk.company, walk.filters, position.checkpoint);
        return {
          ok: false,
          stale: true,
          attempts: result.attempts,
          failure: { code: 'cursor_mismatch', status: 400, detail: 'a remembered position no longer holds' },
        };
      }
      // The page moved since it was read (rows added or gone): the row expected next, found where it is now.
      const found = keys.findIndex((key) => sameRow(key, position.head as RowKey));
      if (found >= 0) skip = found;
    }
    // A remembered boundary is not checked against: its next row was, and that is what the jump relies on.
    let previous = position.checkpoint ? null : (position.prev?.at ?? null);
    let previousWhere = 'the last row of the page before';
    for (const [index, key] of walk.ordered || position.checkpoint ? keys.entries() : []) {
      if (key.at === null) continue;
      if (previous !== null && compare(key.at, previous) < 0)
        return {
          ok: false,
          attempts: result.attempts,
          failure: outOfOrder(walk, `data[${index}]`, key.at, previousWhere, previous),
        };
      previous = key.at;
      previousWhere = `data[${index}]`;
    }
    const first = keys[0];
    // A cursor of unknown age (from a list's own cursor) is remembered only while lifetimes are not known.
    const issuedAt = position.issuedAt ?? (parts.lifetime?.knownMs() === undefined ? answeredAt : undefined);
    if (
      position.skip === 0 &&
      position.cursor !== null &&
      position.prev?.at != null &&
      first?.at != null &&
      issuedAt !== undefined
    )
      parts.checkpoints.record(walk.company, walk.filters, {
        boundary: { at: position.prev.at, id: position.prev.id },
        cursor: position.cursor,
        next: { at: first.at, id: first.id },
        issuedAt,
      });

    const { from, to } = walk.range;
    const [start, end] = parts.order === 'created_at_desc' ? [to, from] : [from, to];
    const bounded = from !== undefined || to !== undefined;
    const rows: KeptRow[] = [];
    let ended = !page.has_more;
    for (let index = skip; index < keys.length; index++) {
      const { at } = keys[index] as RowKey;
      const record = page.data[index] as Payment;
      if (at === null) {
        // A time that reads as none cannot be placed in a period: a period leaves it out.
        if (!bounded && (walk.keep?.(record) ?? true))
          rows.push({ record, key: keys[index] as RowKey, index });
        continue;
      }
      if (start !== undefined && compare(at, start) < 0) continue;
      if (end !== undefined && compare(at, end) > 0) {
        ended = true;
        break;
      }
      if (walk.keep?.(record) ?? true) rows.push({ record, key: keys[index] as RowKey, index });
    }
    const last = keys.at(-1) ?? position.prev;
    const next: Position | null =
      page.next_cursor === null
        ? null
        : { cursor: page.next_cursor, skip: 0, limit: position.limit, prev: last, issuedAt: answeredAt };
    return { ok: true, rows, ended, next, keys, attempts: result.attempts };
  };
}

export type CompanyReader = ReturnType<typeof createCompanyReader>;

/** A cursor the upstream refused: expired, or not for these filters (which one, the upstream may not say). */
export const isCursorRefusal = (code: string) => code === 'cursor_mismatch' || code === 'cursor_expired';
