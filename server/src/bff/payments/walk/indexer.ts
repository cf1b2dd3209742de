import { setTimeout as sleep } from 'node:timers/promises';
import type { Leases } from '../../../shared-state/index.ts';
import type { CompanyReader, Position } from './company-reader.ts';
import type { CursorLifetime } from './cursor-lifetime.ts';
import { WALK_PAGE_SIZE } from './walk-plan.ts';

/** How often the companies are walked again: well within the 24 h a remembered position is kept. */
const REINDEX_MS = 6 * 3_600_000;
/**
 * With cursors that expire, the months whose starts are kept fresh: this one and the two before (a quarter's).
 * Deeper positions would cost a walk from the top every half lifetime; past figures serve those (per-day figures).
 */
const FRESH_MONTHS = 3;
/** The user the budget sees the indexer as: its turns never come before a person's. */
const INDEXER = '(indexer)';

/**
 * UPSTREAM_INDEXER=on: walks every company's whole list in the background, in the budget's lowest class, so that
 * positions are remembered before anyone asks a question that reaches into the past. One replica indexes at a
 * time (a place in the shared state); remembered positions serve all of them. When the upstream's cursors expire
 * (their lifetime known), each company is walked from the top down to the start of FRESH_MONTHS months back,
 * every half lifetime, so the top and those month starts always have live cursors.
 */
export function startIndexer(parts: {
  read: CompanyReader;
  leases: Leases;
  companies: readonly string[];
  lifetime?: CursorLifetime | undefined;
  /** The list's order: only newest first has the recent months at its top. */
  newestFirst?: boolean;
  now?: () => number;
  /** Called after each company's walk, for the log. */
  onWalked?(company: string, pages: number, ok: boolean): void;
}) {
  const stop = new AbortController();
  const now = parts.now ?? Date.now;
  /** How far down a walk goes: the start of FRESH_MONTHS months back (UTC) when cursors expire, else the end. */
  const depth = () => {
    if (parts.lifetime?.knownMs() === undefined || !parts.newestFirst) return {};
    const today = new Date(now());
    return { from: Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - FRESH_MONTHS + 1, 1) - 86_400_000 };
  };
  const walkCompany = async (company: string) => {
    let position: Position | null = { cursor: null, skip: 0, limit: WALK_PAGE_SIZE };
    let pages = 0;
    const range = depth();
    const walk = {
      company,
      filters: {},
      range,
      ordered: range.from !== undefined,
      cls: 'background' as const,
      user: INDEXER,
      signal: stop.signal,
    };
    while (position !== null && !stop.signal.aborted) {
      const read = await parts.read(walk, position);
      if (!read.ok) return parts.onWalked?.(company, pages, false);
      pages += 1;
      position = read.ended ? null : read.next;
    }
    parts.onWalked?.(company, pages, !stop.signal.aborted);
  };
  const done = (async () => {
    while (!stop.signal.aborted) {
      const began = now();
      const held = await parts.leases.enter('indexer', 1).catch(() => null);
      if (held) {
        for (const company of parts.companies) {
          if (stop.signal.aborted || held.lost.aborted) break;
          await walkCompany(company);
        }
        held.leave();
      }
      // Half a cursor's lifetime: a position recorded at the end of one round is still live at the next.
      const every = Math.min(REINDEX_MS, (parts.lifetime?.knownMs() ?? REINDEX_MS) / 2);
      const wait = Math.max(1_000, every - (now() - began));
      await sleep(wait, undefined, { signal: stop.signal, ref: false }).catch(() => undefined);
    }
  })();
  return {
    async stop() {
      stop.abort();
      await done;
    },
  };
}
