import { Hono } from 'hono';
import type { SharedState } from '../shared-state/index.ts';
import type { UpstreamClient, UpstreamResult } from '../upstream/index.ts';
import type { BffEnv } from './bff-env.ts';
import { problemResponse } from './problem-response.ts';

/** How long a readiness answer is reused. */
const READY_CACHE_MS = 5_000;

/**
 * `/healthz`: the process answers. `/readyz`: the shared state answers (else 503 `shared_state_unavailable`), and
 * the upstream answers and accepts our credentials.
 */
export function healthRoutes(parts: {
  upstream: UpstreamClient;
  state: SharedState;
  ownCompanyId: string;
  now: () => number;
}) {
  // Cached so a load balancer probing every second does not turn into upstream traffic. A clock stepped back (an
  // NTP correction, a resumed VM) ends the cached answer too, or it would be served until the clock caught up.
  let cached: { at: number; result: Promise<UpstreamResult<unknown>> } | undefined;
  const probe = () => {
    const now = parts.now();
    if (!cached || now < cached.at || now - cached.at >= READY_CACHE_MS) {
      cached = {
        at: now,
        result: parts.upstream.listPayments({ limit: 1 }, { companyId: parts.ownCompanyId }),
      };
    }
    return cached.result;
  };
  return new Hono<BffEnv>()
    .get('/healthz', (c) => c.json({ status: 'ok' as const }, 200))
    .get('/readyz', async (c) => {
      await parts.state.ping();
      const result = await probe();
      if (result.ok) return c.json({ status: 'ready' as const }, 200);
      return problemResponse(c, result.failure.code, 503, `not ready: ${result.failure.detail}`);
    });
}
