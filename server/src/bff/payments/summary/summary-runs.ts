import { type Summary, summarySchema } from '@payments/shared';
import type { Held, Leases, SharedState } from '../../../shared-state/index.ts';
import type { UpstreamFailure } from '../../../upstream/index.ts';
import { awaitSharedRun, type SharedRun } from '../walk/shared-run.ts';
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
interface Shared extends SharedRun<Outcome> {
  /** When the walk began: every row it counts is read at or after it (its figures' `as_of`). */
  startedAt: number;
  counted: number;
}

/**
 * The summaries running and done. Finished figures are kept in the shared state for SUMMARY_CACHE_MS per question,
 * so a dashboard reloaded or opened by a colleague does not walk the upstream again. A question asked again while
 * it is being counted joins the walk under way. Each user has one summary place: a newer question takes it, and
 * the older one, on whichever replica it waits, is answered `summary_superseded` (the walk goes on while anybody
 * else still waits for it). A Refresh asked at T joins only a walk that began at or after T: one begun before
 * may have read rows before they changed, so its figures are not what the Refresh promises.
 */
export function createSummaryRuns(state: SharedState, leases: Leases, now: () => number = Date.now) {
  const cacheKey = (key: string) => `summary:${key}`;
  const running = new Map<string, Shared>();
  /** Caches figures unless newer ones are cached: an older walk ending last does not hide a Refresh's answer. */
  const keepNewest = async (key: string, outcome: Summary) => {
    const cached = await state.get(cacheKey(key));
    const cachedAsOf = cached === null ? undefined : summarySchema.safeParse(JSON.parse(cached)).data?.as_of;
    if (cachedAsOf !== undefined && outcome.as_of !== undefined && cachedAsOf > outcome.as_of) return;
    await state.set(cacheKey(key), JSON.stringify(outcome), SUMMARY_CACHE_MS);
  };
  return {
    async cached(key: string): Promise<Summary | undefined> {
      const hit = await state.get(cacheKey(key));
      if (hit === null) return undefined;
      const parsed = summarySchema.safeParse(JSON.parse(hit));
      return parsed.success ? parsed.data : undefined;
    },
    /** The user's one summary place, taken from the question before. */
    claim: (user: string): Promise<Held> => leases.takeOver(`summary-run:${user}`),
    /**
     * Whether a walk for `key` begun at or after `notBefore` is under way here (a request that joins it starts no
     * walk of its own).
     */
    isRunning: (key: string, notBefore = -Infinity) =>
      (running.get(key)?.startedAt ?? -Infinity) >= notBefore,
    /**
     * Waits for the figures of `key`: joins the walk under way, or starts one with `walk`. `progress` hears the rows
     * counted so far; the waiter leaves on `signal`, and the walk stops when nobody waits for it any more. With
     * `notBefore` (a Refresh), a walk begun earlier is not joined: a new one starts, and later askers join that.
     */
    async await(
      key: string,
      walk: (signal: AbortSignal, counted: (rows: number) => void, startedAt: number) => Promise<Outcome>,
      waiter: { signal: AbortSignal; progress(counted: number): void; notBefore?: number | undefined },
    ): Promise<Outcome | 'left'> {
      let shared = running.get(key);
      if (!shared || shared.startedAt < (waiter.notBefore ?? -Infinity)) {
        const stop = new AbortController();
        const startedAt = now();
        const fresh: Shared = {
          startedAt,
          stop,
          listeners: new Set(),
          counted: 0,
          outcome: Promise.resolve({} as Outcome),
        };
        fresh.outcome = walk(
          stop.signal,
          (rows) => {
            fresh.counted += rows;
            for (const listener of fresh.listeners) listener(fresh.counted);
          },
          startedAt,
        ).then(async (outcome) => {
          if (running.get(key) === fresh) running.delete(key);
          if ('count' in outcome) await keepNewest(key, outcome).catch(() => undefined);
          return outcome;
        });
        running.set(key, fresh);
        shared = fresh;
      }
      const joined = shared;
      // Nobody waits: the walk stops, whether or not a Refresh's newer walk has taken its place.
      return awaitSharedRun(joined, waiter, () => {
        if (running.get(key) === joined) running.delete(key);
      });
    },
  };
}

export type SummaryRuns = ReturnType<typeof createSummaryRuns>;
