import type { Summary } from '@payments/shared';

/** How long a finished summary is served again for the same question. */
export const SUMMARY_CACHE_MS = 60_000;
export const DEFAULT_SUMMARY_MAX_ROWS = 1_000_000;
const CACHE_ENTRIES = 1_000;

/**
 * The summaries running and done: one running per user (a new one cancels the old, which nobody reads any more),
 * and finished ones kept for SUMMARY_CACHE_MS per question, so a dashboard reloaded or opened by a colleague
 * does not walk the upstream again.
 */
export function createSummaryRuns(now: () => number) {
  const running = new Map<string, AbortController>();
  const done = new Map<string, { at: number; summary: Summary }>();
  return {
    cached(key: string): Summary | undefined {
      const hit = done.get(key);
      if (hit === undefined) return undefined;
      if (now() - hit.at < SUMMARY_CACHE_MS && now() >= hit.at) return hit.summary;
      done.delete(key);
      return undefined;
    },
    remember(key: string, summary: Summary): void {
      if (done.size >= CACHE_ENTRIES) done.delete(done.keys().next().value as string);
      done.set(key, { at: now(), summary });
    },
    /** Starts the user's run, cancelling the one before; `finish` when it ends. */
    start(user: string): { signal: AbortSignal; finish(): void } {
      running.get(user)?.abort();
      const controller = new AbortController();
      running.set(user, controller);
      return {
        signal: controller.signal,
        finish() {
          if (running.get(user) === controller) running.delete(user);
        },
      };
    },
  };
}

export type SummaryRuns = ReturnType<typeof createSummaryRuns>;
