import type { MiddlewareHandler } from 'hono';
import { problemResponse } from './sandbox-problem.ts';
import type { Random } from './seeded-random.ts';

/** Faults the sandbox injects into `/v1/*` for the BFF's tests. Shares are probabilities 0..1 per request. */
export interface SandboxFaults {
  /** Added to every signed-in response the rate limit lets through, in milliseconds. */
  latencyMs?: number;
  error500?: number;
  error503?: number;
  rate429?: number;
  /** `Retry-After` seconds sent with the injected 429s; default 1. */
  retryAfterSeconds?: number;
  /** A 200 whose JSON body is cut short. */
  malformed?: number;
  /**
   * A real rate limit over every `/v1/*` request: a token bucket of this many requests per second, one second of
   * burst; a request without a token gets 429 with `Retry-After`.
   */
  rateLimitRps?: number;
  /** Seconds a cursor is accepted after it was issued; older ones are refused with 410 `cursor_expired`. */
  cursorTtlSeconds?: number;
  /** AWAITING payments settled (COMPLETED, or FAILED) per second, the last added first: statuses change after the fact. */
  settleRps?: number;
}

const KEYS = {
  latency_ms: 'latencyMs',
  error_500: 'error500',
  error_503: 'error503',
  rate_429: 'rate429',
  retry_after: 'retryAfterSeconds',
  malformed: 'malformed',
  rate_limit_rps: 'rateLimitRps',
  cursor_ttl_s: 'cursorTtlSeconds',
  settle_rps: 'settleRps',
} as const satisfies Record<string, keyof SandboxFaults>;
const SHARES = ['error500', 'error503', 'rate429', 'malformed'] as const;
const MAX_LATENCY_MS = 60_000;
const MAX_RETRY_AFTER_SECONDS = 3_600;
const MAX_RATE_LIMIT_RPS = 100_000;
const MAX_CURSOR_TTL_SECONDS = 86_400;
const MAX_SETTLE_RPS = 10_000;

/** Checks fault settings however they arrived; the message names the setting at fault. */
export function checkFaults(faults: SandboxFaults): SandboxFaults {
  const { latencyMs, retryAfterSeconds, rateLimitRps } = faults;
  if (
    latencyMs !== undefined &&
    !(Number.isInteger(latencyMs) && latencyMs >= 0 && latencyMs <= MAX_LATENCY_MS)
  ) {
    throw new Error(`latency_ms must be an integer from 0 to ${MAX_LATENCY_MS}`);
  }
  if (
    retryAfterSeconds !== undefined &&
    !(
      Number.isInteger(retryAfterSeconds) &&
      retryAfterSeconds >= 0 &&
      retryAfterSeconds <= MAX_RETRY_AFTER_SECONDS
    )
  ) {
    throw new Error(`retry_after must be an integer from 0 to ${MAX_RETRY_AFTER_SECONDS}`);
  }
  if (
    rateLimitRps !== undefined &&
    !(Number.isInteger(rateLimitRps) && rateLimitRps >= 1 && rateLimitRps <= MAX_RATE_LIMIT_RPS)
  ) {
    throw new Error(`rate_limit_rps must be an integer from 1 to ${MAX_RATE_LIMIT_RPS}`);
  }
  const { cursorTtlSeconds, settleRps } = faults;
  if (
    cursorTtlSeconds !== undefined &&
    !(
      Number.isInteger(cursorTtlSeconds) &&
      cursorTtlSeconds >= 1 &&
      cursorTtlSeconds <= MAX_CURSOR_TTL_SECONDS
    )
  )
    throw new Error(`cursor_ttl_s must be an integer from 1 to ${MAX_CURSOR_TTL_SECONDS}`);
  if (
    settleRps !== undefined &&
    !(Number.isFinite(settleRps) && settleRps >= 0 && settleRps <= MAX_SETTLE_RPS)
  )
    throw new Error(`settle_rps must be a number from 0 to ${MAX_SETTLE_RPS}`);
  let total = 0;
  for (const key of SHARES) {
    const share = faults[key];
    if (share === undefined) continue;
    if (!(Number.isFinite(share) && share >= 0 && share <= 1))
      throw new Error(`${key} must be a share from 0 to 1`);
    total += share;
  }
  if (total > 1 + 1e-9) throw new Error('the fault shares add up to more than 1');
  return faults;
}

/**
 * Parses `SANDBOX_FAULTS`, e.g. `latency_ms=20,error_500=0.1,rate_429=0.05,retry_after=1,malformed=0.05`,
 * `latency_ms=100,rate_limit_rps=40`, or an upstream that forgets: `cursor_ttl_s=60,settle_rps=2`.
 */
export function parseFaults(spec: string): SandboxFaults {
  const faults: SandboxFaults = {};
  for (const item of spec.split(',')) {
    const entry = item.trim();
    if (entry === '') continue;
    const [name = '', value, ...rest] = entry.split('=').map((part) => part.trim());
    if (!Object.hasOwn(KEYS, name)) {
      throw new Error(`unknown fault "${name}"; known: ${Object.keys(KEYS).join(', ')}`);
    }
    const key = KEYS[name as keyof typeof KEYS];
    if (faults[key] !== undefined) throw new Error(`fault "${name}" is given twice`);
    if (value === undefined || value === '' || rest.length > 0 || !/^\d+(\.\d+)?$/.test(value)) {
      throw new Error(`fault "${name}" needs a number, as in ${name}=0.1`);
    }
    faults[key] = Number(value);
  }
  return checkFaults(faults);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Middleware that delays every response, then replaces a share of them with a 500, a 503, a 429 with
 * `Retry-After`, or a 200 with a truncated JSON body, in that order of one random draw.
 */
export function faultInjection(faults: SandboxFaults, random: Random): MiddlewareHandler {
  const { latencyMs = 0, error500 = 0, error503 = 0, rate429 = 0, malformed = 0 } = faults;
  const retryAfter = String(faults.retryAfterSeconds ?? 1);
  return async (c, next) => {
    if (latencyMs > 0) await sleep(latencyMs);
    const roll = random();
    if (roll < error500) return problemResponse('internal_error', 500, 'Injected fault: internal error.');
    if (roll < error500 + error503) {
      return problemResponse('service_unavailable', 503, 'Injected fault: service unavailable.');
    }
    if (roll < error500 + error503 + rate429) {
      return problemResponse(
        'rate_limited',
        429,
        `Injected fault: too many requests; retry after ${retryAfter} s.`,
        {
          headers: { 'Retry-After': retryAfter },
        },
      );
    }
    await next();
    if (roll < error500 + error503 + rate429 + malformed && c.res.status === 200) {
      const body = await c.res.text();
      const headers = new Headers(c.res.headers);
      headers.delete('Content-Length');
      // A proper prefix of a JSON object is never valid JSON.
      c.res = new Response(body.slice(0, Math.floor(body.length / 2)), { status: 200, headers });
    }
  };
}
