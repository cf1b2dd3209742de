import { randomUUID } from 'node:crypto';
import { type Summary, summarySchema } from '@payments/shared';
import type { SharedState } from '../../../shared-state/index.ts';

/** How long a finished summary is served again for the same question. */
export const SUMMARY_CACHE_MS = 60_000;
export const DEFAULT_SUMMARY_MAX_ROWS = 1_000_000;
/** A run's claim on its user's one place; a run checks it this often, so a newer one elsewhere stops it. */
const RUN_CLAIM_MS = 10 * 60_000;
const CLAIM_CHECK_MS = 1_000;

/**
 * The summaries running and done, in the shared state so both hold across replicas: one running per user (a
 * new one stops the old, which nobody reads any more, on whichever replica it runs), and finished ones kept for
 * SUMMARY_CACHE_MS per question, so a dashboard reloaded or opened by a colleague does not walk the upstream again.
 */
export function createSummaryRuns(state: SharedState) {
  const cacheKey = (key: string) => `summary:${key}`;
  const runKey = (user: string) => `summary-run:${user}`;
  // This replica's runs, stopped at once by a newer run here; runs elsewhere notice within CLAIM_CHECK_MS.
  const local = new Map<string, AbortController>();
  return {
    async cached(key: string): Promise<Summary | undefined> {
      const hit = await state.get(cacheKey(key));
      if (hit === null) return undefined;
      const parsed = summarySchema.safeParse(JSON.parse(hit));
      return parsed.success ? parsed.data : undefined;
    },
    /** Best effort: a summary that could not be cached is still answered. */
    remember(key: string, summary: Summary): void {
      state.set(cacheKey(key), JSON.stringify(summary), SUMMARY_CACHE_MS).catch(() => undefined);
    },
    /** Starts the user's run, stopping the one before; `finish` when it ends. */
    async start(user: string): Promise<{ signal: AbortSignal; finish(): void }> {
      const id = randomUUID();
      await state.set(runKey(user), id, RUN_CLAIM_MS);
      local.get(user)?.abort();
      const controller = new AbortController();
      local.set(user, controller);
      const watch = setInterval(async () => {
        const current = await state.get(runKey(user)).catch(() => id);
        if (current !== id) controller.abort();
      }, CLAIM_CHECK_MS);
      watch.unref();
      return {
        signal: controller.signal,
        finish() {
          clearInterval(watch);
          if (local.get(user) === controller) local.delete(user);
          state.get(runKey(user)).then(
            (current) => (current === id ? state.delete(runKey(user)) : undefined),
            () => undefined,
          );
        },
      };
    },
  };
}

export type SummaryRuns = ReturnType<typeof createSummaryRuns>;
