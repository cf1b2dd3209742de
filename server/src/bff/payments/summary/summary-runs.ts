import { type Summary, summarySchema } from '@payments/shared';
import type { Held, Leases, SharedState } from '../../../shared-state/index.ts';
import type { UpstreamFailure } from '../../../upstream/index.ts';
import type { View } from '../walk/view.ts';

/** How long a finished summary is served again for the same question. */
const SUMMARY_CACHE_MS = 60_000;

type Outcome = Summary | UpstreamFailure;

/** The question a view's figures answer: a group's depend on which of its companies the user may see. */
export const summaryKey = (view: View) =>
  JSON.stringify([
    view.members,
    view.statuses,
    view.filters.date_from,
    view.date_to,
    view.currencies,
    view.amount?.min,
    view.amount?.max,
    view.search?.q,
  ]);

/** A walk counting one question, shared by everyone asking it in this process. */
interface Shared {
  outcome: Promise<Outcome>;
  stop: AbortController;
  listeners: Set<(counted: number) => void>;
  counted: number;
}

/**
 * The summaries running and done. Finished figures are kept in the shared state for SUMMARY_CACHE_MS per question,
 * so a dashboard reloaded or opened by a colleague does not walk the upstream again. A question asked again while
 * it is being counted joins the walk under way. Each user has one summary place: a newer question takes it, and
 * the older one, on whichever replica it waits, is answered `summary_superseded` (the walk goes on while anybody
 * else still waits for it).
 */
export function createSummaryRuns(state: SharedState, leases: Leases) {
  const cacheKey = (key: string) => `summary:${key}`;
  const running = new Map<string, Shared>();
  return {
    async cached(key: string): Promise<Summary | undefined> {
      const hit = await state.get(cacheKey(key));
      if (hit === null) return undefined;
      const parsed = summarySchema.safeParse(JSON.parse(hit));
      return parsed.success ? parsed.data : undefined;
    },
    /** The user's one summary place, taken from the question before. */
    claim: (user: string): Promise<Held> => leases.takeOver(`summary-run:${user}`),
    /** Whether a walk for `key` is under way here (a request that joins it starts no walk of its own). */
    isRunning: (key: string) => running.has(key),
    /**
     * Waits for the figures of `key`: joins the walk under way, or starts one with `walk`. `progress` hears the rows
     * counted so far; the waiter leaves on `signal`, and the walk stops when nobody waits for it any more.
     */
    async await(
      key: string,
      walk: (signal: AbortSignal, counted: (rows: number) => void) => Promise<Outcome>,
      waiter: { signal: AbortSignal; progress(counted: number): void },
    ): Promise<Outcome | 'left'> {
      let shared = running.get(key);
      if (!shared) {
        const stop = new AbortController();
        const fresh: Shared = {
          stop,
          listeners: new Set(),
          counted: 0,
          outcome: Promise.resolve({} as Outcome),
        };
        fresh.outcome = walk(stop.signal, (rows) => {
          fresh.counted += rows;
          for (const listener of fresh.listeners) listener(fresh.counted);
        }).then((outcome) => {
          running.delete(key);
          if ('count' in outcome)
            state.set(cacheKey(key), JSON.stringify(outcome), SUMMARY_CACHE_MS).catch(() => undefined);
          return outcome;
        });
        running.set(key, fresh);
        shared = fresh;
      }
      const joined = shared;
      joined.listeners.add(waiter.progress);
      let leave = () => {};
      const left = new Promise<'left'>((resolve) => {
        leave = () => resolve('left');
        waiter.signal.addEventListener('abort', leave, { once: true });
      });
      try {
        return await Promise.race([joined.outcome, left]);
      } finally {
        waiter.signal.removeEventListener('abort', leave);
        joined.listeners.delete(waiter.progress);
        if (joined.listeners.size === 0 && running.get(key) === joined) {
          joined.stop.abort();
          running.delete(key);
        }
      }
    },
  };
}

export type SummaryRuns = ReturnType<typeof createSummaryRuns>;
