/** Upstream statuses worth another try: the request was fine, the service was momentarily not. */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 500, 502, 503, 504]);

export interface BackoffOptions {
  baseMs: number;
  capMs: number;
  random: () => number;
}

/**
 * "Full jitter" backoff: a uniform wait in [0, min(cap, base·2^retry)). Spreading retries randomly keeps many
 * BFF replicas from hammering a recovering upstream in lockstep.
 */
export function backoffDelay(retry: number, options: BackoffOptions): number {
  const ceiling = Math.min(options.capMs, options.baseMs * 2 ** retry);
  return Math.floor(options.random() * ceiling);
}

const DELAY_SECONDS = /^\d{1,9}$/;

/**
 * `Retry-After` (RFC 9110 §10.2.3) as milliseconds from `nowMs`: either delay-seconds or an HTTP-date.
 * Anything unreadable is ignored (undefined) rather than trusted; dates in the past mean "now" (0).
 */
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | undefined {
  if (value === null || value === undefined) return undefined;
  const trimmed = value.trim();
  if (DELAY_SECONDS.test(trimmed)) return Number(trimmed) * 1000;
  // HTTP-date always names a weekday and "GMT"; Date.parse alone would accept far looser strings.
  if (!/^[A-Za-z]{3}, \d{2} [A-Za-z]{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/.test(trimmed)) return undefined;
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}
