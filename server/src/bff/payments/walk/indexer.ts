import { setTimeout as sleep } from 'node:timers/promises';
import type { Leases } from '../../../shared-state/index.ts';
import type { CompanyReader, Position } from './company-reader.ts';
import { WALK_PAGE_SIZE } from './walk-plan.ts';

/** How often the companies are walked again: well within the 24 h a remembered position is kept. */
const REINDEX_MS = 6 * 3_600_000;
/** The user the budget sees the indexer as: its turns never come before a person's. */
const INDEXER = '(indexer)';

/**
 * UPSTREAM_INDEXER=on: walks every company's whole list in the background, in the budget's lowest class, so that
 * positions are remembered before anyone asks a question that reaches into the past. One replica indexes at a
 * time (a place in the shared state); remembered positions serve all of them.
 */
export function startIndexer(parts: {
  read: CompanyReader;
  leases: Leases;
  companies: readonly string[];
  /** Called after each company's walk, for the log. */
  onWalked?(company: string, pages: number, ok: boolean): void;
}) {
  const stop = new AbortController();
  const walkCompany = async (company: string) => {
    let position: Position | null = { cursor: null, skip: 0, limit: WALK_PAGE_SIZE };
    let pages = 0;
    const walk = {
      company,
      filters: {},
      range: {},
      ordered: false,
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
      const held = await parts.leases.enter('indexer', 1).catch(() => null);
      if (held) {
        for (const company of parts.companies) {
          if (stop.signal.aborted || held.lost.aborted) break;
          await walkCompany(company);
        }
        held.leave();
      }
      await sleep(REINDEX_MS, undefined, { signal: stop.signal, ref: false }).catch(() => undefined);
    }
  })();
  return {
    async stop() {
      stop.abort();
      await done;
    },
  };
}
