import type { MiddlewareHandler } from 'hono';
import { problemResponse } from './sandbox-problem.ts';

export type Admission = { ok: true } | { ok: false; retryAfterSeconds: number };

/**
 * A token bucket of `ratePerSecond` tokens, full at the start, holding one second's worth at most and refilled
 * continuously. `nowMs` is a monotonic clock in milliseconds.
 */
export function createTokenBucket(ratePerSecond: number, nowMs: () => number) {
  if (!(Number.isFinite(ratePerSecond) && ratePerSecond >= 1))
    throw new Error('the rate must be at least 1 per second');
  // Time is counted in ms × rate, so a token is 1000 of it and the capacity 1000 × rate: exact on whole
  // milliseconds. The bucket holds (now · rate − emptyAt) / 1000 tokens, a difference rather than a running
  // sum, so no rounding error piles up.
  const token = 1000;
  const capacity = token * ratePerSecond;
  let emptyAt = nowMs() * ratePerSecond - capacity;
  return {
    /** Takes a token if there is one; a refusal takes none and says in whole seconds (≥ 1) when one will be there. */
    take(): Admission {
      const now = nowMs() * ratePerSecond;
      emptyAt = Math.max(emptyAt, now - capacity);
      if (now - emptyAt >= token) {
        emptyAt += token;
        return { ok: true };
      }
      const waitMs = (token - (now - emptyAt)) / ratePerSecond;
      return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
    },
  };
}

/**
 * Middleware that answers 429 `rate_limited` with `Retry-After` to every request the bucket has no token for.
 *
 * @example
 * api.use('/v1/*', rateLimit(createTokenBucket(40, () => performance.now())));
 */
export function rateLimit(bucket: ReturnType<typeof createTokenBucket>): MiddlewareHandler {
  return async (_c, next) => {
    const admission = bucket.take();
    if (admission.ok) return next();
    const seconds = String(admission.retryAfterSeconds);
    return problemResponse('rate_limited', 429, `Rate limit exceeded; retry after ${seconds} s.`, {
      headers: { 'Retry-After': seconds },
    });
  };
}
