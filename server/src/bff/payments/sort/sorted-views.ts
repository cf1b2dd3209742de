import type { AmountUnit, Sort } from '@payments/shared';
import type { ListOrder } from '../../../config/settings.ts';
import type { UpstreamFailure } from '../../../upstream/index.ts';
import type { Checkpoints } from '../walk/checkpoints.ts';
import type { CompanyReader } from '../walk/company-reader.ts';
import { viewRows } from '../walk/ordered-walk.ts';
import type { View } from '../walk/view.ts';
import { type SortedRow, sortOrder } from './sort-order.ts';

/** How long a sorted view is kept after its last use: long enough to scroll it and open its rows. */
const SORTED_VIEW_TTL_MS = 5 * 60_000;

export type SortOutcome =
  | { ok: true; rows: readonly SortedRow[]; attempts: number }
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

interface Building {
  outcome: Promise<SortOutcome>;
  stop: AbortController;
  listeners: Set<(sorted: number) => void>;
  read: number;
}

/**
 * Sorted views: the upstream lists newest first only, so a view in another order is the whole period walked (the
 * walk engine: companies at once, split at remembered positions, within the upstream budget), held and sorted
 * here. A view of more than SORT_MAX_ROWS rows is refused. Views are kept in this process for SORTED_VIEW_TTL_MS
 * after their last use, at most SORT_MAX_ROWS rows in all: a new view drops the least recently used ones, so memory
 * stays within one largest view. A question asked while it is being walked joins the walk under way; the walk
 * stops when nobody waits for it.
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
  const kept = new Map<string, { rows: readonly SortedRow[]; used: number }>();
  const building = new Map<string, Building>();
  let keptRows = 0;

  const forget = (key: string) => {
    const entry = kept.get(key);
    if (entry) keptRows -= entry.rows.length;
    kept.delete(key);
  };
  const sweep = () => {
    for (const [key, entry] of kept) if (now() - entry.used > SORTED_VIEW_TTL_MS) forget(key);
  };
  const keep = (key: string, rows: readonly SortedRow[]) => {
    sweep();
    // Least recently used first: a Map iterates in insertion order, and a use re-inserts.
    for (const [old] of kept) {
      if (keptRows + rows.length <= parts.maxRows) break;
      forget(old);
    }
    kept.set(key, { rows, used: now() });
    keptRows += rows.length;
  };

  async function walk(view: View, sort: Sort, signal: AbortSignal, progress: (read: number) => void) {
    const rows: SortedRow[] = [];
    const walked = viewRows(view, {
      read: parts.read,
      checkpoints: parts.checkpoints,
      order: parts.order,
      timeZone: parts.timeZone,
      signal,
    });
    for (;;) {
      const next = await walked.next();
      if (next.done) {
        if (!next.value.ok) return next.value;
        rows.sort(sortOrder(sort, parts));
        return { ok: true as const, rows, attempts: next.value.attempts };
      }
      rows.push(...next.value);
      progress(rows.length);
      if (rows.length > parts.maxRows) {
        const end = await walked.return({ ok: true, attempts: 0 });
        return { ok: 'too_large' as const, attempts: end.done ? end.value.attempts : 0 };
      }
    }
  }

  return {
    /** The sorted rows when kept (and marks them used), else undefined. */
    kept(key: string): readonly SortedRow[] | undefined {
      const entry = kept.get(key);
      if (!entry || now() - entry.used > SORTED_VIEW_TTL_MS) {
        if (entry) forget(key);
        return undefined;
      }
      kept.delete(key);
      kept.set(key, { ...entry, used: now() });
      return entry.rows;
    },
    /**
     * The sorted rows of `view`: kept, or walked now (joining a walk of the same question under way). `progress`
     * hears the rows read so far; the waiter leaves on `signal`.
     */
    async sorted(
      view: View,
      sort: Sort,
      waiter: { signal: AbortSignal; progress(read: number): void },
    ): Promise<SortOutcome | 'left'> {
      const key = sortedKey(view, sort);
      const rows = this.kept(key);
      if (rows) return { ok: true, rows, attempts: 0 };
      let run = building.get(key);
      if (!run) {
        const stop = new AbortController();
        const fresh: Building = {
          stop,
          listeners: new Set(),
          read: 0,
          outcome: Promise.resolve({} as SortOutcome),
        };
        fresh.outcome = walk(view, sort, stop.signal, (read) => {
          fresh.read = read;
          for (const listener of fresh.listeners) listener(read);
        }).then((outcome) => {
          if (building.get(key) === fresh) building.delete(key);
          if (outcome.ok === true) keep(key, outcome.rows);
          return outcome;
        });
        building.set(key, fresh);
        run = fresh;
      }
      const joined = run;
      joined.listeners.add(waiter.progress);
      let leave = () => {};
      const left = new Promise<'left'>((resolve) => {
        leave = () => resolve('left');
        if (waiter.signal.aborted) leave();
        else waiter.signal.addEventListener('abort', leave, { once: true });
      });
      try {
        return await Promise.race([joined.outcome, left]);
      } finally {
        waiter.signal.removeEventListener('abort', leave);
        joined.listeners.delete(waiter.progress);
        if (joined.listeners.size === 0 && building.get(key) === joined) {
          joined.stop.abort();
          building.delete(key);
        }
      }
    },
    /** Rows kept in all, for tests and metrics: never above maxRows. */
    get keptRows() {
      return keptRows;
    },
  };
}

export type SortedViews = ReturnType<typeof createSortedViews>;
