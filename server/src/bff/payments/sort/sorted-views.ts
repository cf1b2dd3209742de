import type { AmountUnit, Sort } from '@payments/shared';
import type { ListOrder } from '../../../config/settings.ts';
import type { UpstreamFailure } from '../../../upstream/index.ts';
import type { Checkpoints } from '../walk/checkpoints.ts';
import { type CompanyReader, isCursorRefusal } from '../walk/company-reader.ts';
import { viewRows } from '../walk/ordered-walk.ts';
import { awaitSharedRun, type SharedRun } from '../walk/shared-run.ts';
import type { View } from '../walk/view.ts';
import { type SortedRow, sortOrder } from './sort-order.ts';

/** How long a sorted view is kept after its last use: long enough to scroll it and open its rows. */
const SORTED_VIEW_TTL_MS = 5 * 60_000;

/** A view sorted: its rows, and the time its walk began (every row was read at or after it: its `as_of`). */
export interface SortedSnapshot {
  rows: readonly SortedRow[];
  asOf: number;
}

export type SortOutcome =
  | ({ ok: true; attempts: number } & SortedSnapshot)
  | { ok: false; failure: UpstreamFailure; attempts: number }
  | { ok: 'too_large'; attempts: number };

/** The question a sorted view answers: the view's rows (its companies and filters) and the order. */
export const sortedKey = (view: View, sort: Sort) =>
  JSON.stringify([
    view.members,
    view.statuses,
    view.filters.date_from,
    view.date_to,
    view.currencies,
    view.amount?.min,
    view.amount?.max,
    sort,
  ]);

interface Building extends SharedRun<SortOutcome> {
  startedAt: number;
}

/**
 * Sorted views: the upstream lists newest first only, so a view in another order is the whole period walked (the
 * walk engine: companies at once, split at remembered positions, within the upstream budget), held and sorted
 * here. A view of more than SORT_MAX_ROWS rows is refused. Views are kept in this process for SORTED_VIEW_TTL_MS
 * after their last use, at most SORT_MAX_ROWS rows in all: a new view drops the least recently used ones, so memory
 * stays within one largest view. A question asked while it is being walked joins the walk under way; the walk
 * stops when nobody waits for it. A Refresh asked at T (`notBefore`) is answered only by a walk begun at or after
 * T: kept rows or a walk begun before may hold rows read before they changed. Each snapshot is kept under its
 * `as_of`, so a list being scrolled goes on in the snapshot it began in while a Refresh makes a newer one.
 */
export function createSortedViews(parts: {
  maxRows: number;
  read: CompanyReader;
  checkpoints: Checkpoints;
  order: ListOrder;
  timeZone: string;
  amountUnit: AmountUnit;
  now?: () => number;
}) {
  const now = parts.now ?? Date.now;
  /** Snapshots by `[key, asOf]`, least recently used first; `newest` names each key's latest `asOf`. */
  const kept = new Map<string, SortedSnapshot & { key: string; used: number }>();
  const newest = new Map<string, number>();
  const building = new Map<string, Building>();
  let keptRows = 0;
  const slot = (key: string, asOf: number) => JSON.stringify([key, asOf]);

  const forget = (at: string) => {
    const entry = kept.get(at);
    if (!entry) return;
    keptRows -= entry.rows.length;
    kept.delete(at);
    if (newest.get(entry.key) === entry.asOf) newest.delete(entry.key);
  };
  const sweep = () => {
    for (const [at, entry] of kept) if (now() - entry.used > SORTED_VIEW_TTL_MS) forget(at);
  };
  const keep = (key: string, snapshot: SortedSnapshot) => {
    sweep();
    // Least recently used first: a Map iterates in insertion order, and a use re-inserts.
    for (const [old] of kept) {
      if (keptRows + snapshot.rows.length <= parts.maxRows) break;
      forget(old);
    }
    kept.set(slot(key, snapshot.asOf), { ...snapshot, key, used: now() });
    keptRows += snapshot.rows.length;
    // An older walk ending last does not hide a Refresh's newer rows from the next question.
    if ((newest.get(key) ?? Number.NEGATIVE_INFINITY) < snapshot.asOf) newest.set(key, snapshot.asOf);
  };
  /** The snapshot of `key` as of `asOf` when kept (and marks it used), else undefined. */
  const use = (key: string, asOf: number): SortedSnapshot | undefined => {
    const at = slot(key, asOf);
    const entry = kept.get(at);
    if (!entry) return undefined;
    kept.delete(at);
    if (now() - entry.used > SORTED_VIEW_TTL_MS) {
      keptRows -= entry.rows.length;
      if (newest.get(key) === asOf) newest.delete(key);
      return undefined;
    }
    kept.set(at, { ...entry, used: now() });
    return { rows: entry.rows, asOf };
  };

  /** One walk of the view, its rows sorted; `progress` hears the rows read so far. */
  async function walkOnce(
    view: View,
    sort: Sort,
    how: { signal: AbortSignal; progress: (read: number) => void; asOf: number },
  ): Promise<SortOutcome> {
    const rows: SortedRow[] = [];
    const walked = viewRows(view, {
      read: parts.read,
      checkpoints: parts.checkpoints,
      order: parts.order,
      timeZone: parts.timeZone,
      signal: how.signal,
      // No page asked for before this walk began is taken from the upstream client's shared or reused calls.
      notBefore: performance.now(),
    });
    for (;;) {
      const next = await walked.next();
      if (next.done) {
        if (!next.value.ok) return next.value;
        rows.sort(sortOrder(sort, parts));
        return { ok: true as const, rows, asOf: how.asOf, attempts: next.value.attempts };
      }
      rows.push(...next.value);
      how.progress(rows.length);
      if (rows.length > parts.maxRows) {
        const end = await walked.return({ ok: true, attempts: 0 });
        return { ok: 'too_large' as const, attempts: end.done ? end.value.attempts : 0 };
      }
    }
  }

  /**
   * The view walked and sorted. A cursor of the walk's own that the upstream refuses on its next page (it outlived
   * the upstream's cursor lifetime between two pages of a slow walk, or its row left the filter) cannot be gone on
   * from: the walk starts again once, from fresh positions, rather than failing the view. Its rows are then all
   * read after the first start, so `as_of` stays true. A second refusal fails the view as before.
   */
  async function walk(
    view: View,
    sort: Sort,
    how: { signal: AbortSignal; progress: (read: number) => void; asOf: number },
  ): Promise<SortOutcome> {
    // The rows read never go back for whoever follows them: the second walk's count shows once it passes the first's.
    let told = 0;
    const progress = (read: number) => {
      if (read <= told) return;
      told = read;
      how.progress(read);
    };
    const first = await walkOnce(view, sort, { ...how, progress });
    if (first.ok !== false || !isCursorRefusal(first.failure.code) || how.signal.aborted) return first;
    const again = await walkOnce(view, sort, { ...how, progress });
    return { ...again, attempts: first.attempts + again.attempts };
  }

  return {
    /**
     * The newest sorted rows of `key` when kept and, with `notBefore`, begun at or after it; or, with `asOf`, the
     * snapshot of that time (a list scrolled on). Marks them used.
     */
    kept(key: string, when: { notBefore?: number; asOf?: number } = {}): SortedSnapshot | undefined {
      const asOf = when.asOf ?? newest.get(key);
      if (asOf === undefined || asOf < (when.notBefore ?? Number.NEGATIVE_INFINITY)) return undefined;
      return use(key, asOf);
    },
    /**
     * The sorted rows of `view`: kept, or walked now (joining a walk of the same question under way). `progress`
     * hears the rows read so far; the waiter leaves on `signal`. With `notBefore` (a Refresh), neither kept rows
     * nor a walk begun before it answer: a new walk starts, and later askers join that one.
     */
    async sorted(
      view: View,
      sort: Sort,
      waiter: { signal: AbortSignal; progress(read: number): void; notBefore?: number | undefined },
    ): Promise<SortOutcome | 'left'> {
      const key = sortedKey(view, sort);
      const notBefore = waiter.notBefore ?? Number.NEGATIVE_INFINITY;
      const ready = this.kept(key, { notBefore });
      if (ready) return { ok: true, ...ready, attempts: 0 };
      let run = building.get(key);
      if (!run || run.startedAt < notBefore) {
        const startedAt = now();
        const fresh: Building = {
          startedAt,
          stop: new AbortController(),
          listeners: new Set(),
          outcome: Promise.resolve({} as SortOutcome),
        };
        fresh.outcome = walk(view, sort, {
          signal: fresh.stop.signal,
          asOf: startedAt,
          progress: (read) => {
            for (const listener of fresh.listeners) listener(read);
          },
        }).then((outcome) => {
          if (building.get(key) === fresh) building.delete(key);
          if (outcome.ok === true) keep(key, outcome);
          return outcome;
        });
        building.set(key, fresh);
        run = fresh;
      }
      const joined = run;
      // Nobody waits: the walk stops, whether or not a Refresh's newer walk has taken its place.
      return awaitSharedRun(joined, waiter, () => {
        if (building.get(key) === joined) building.delete(key);
      });
    },
    /** Rows kept in all, for tests and metrics: never above maxRows. */
    get keptRows() {
      return keptRows;
    },
  };
}

export type SortedViews = ReturnType<typeof createSortedViews>;
