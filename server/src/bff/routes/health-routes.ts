import { Hono } from 'hono';
import type { UpstreamResult } from '../../upstream/index.ts';
import type { BffDeps, BffEnv } from '../bff-context.ts';
import { problemResponse } from '../problem-response.ts';

/**
 * `/healthz`: the process answers. `/readyz`: the shared state answers (else 503 `shared_state_unavailable`), and
 * the upstream answers and accepts our credentials.
 */
export function healthRoutes(deps: BffDeps, readyCacheMs: number) {
  // Cached so a load balancer probing every second does not turn into upstream traffic. A clock stepped back (an
  // NTP correction, a resumed VM) ends the cached answer too, or it would be served until the clock caught up.
  let cached: { at: number; result: Promise<UpstreamResult<unknown>> } | undefined;
  const probe = () => {
    const now = deps.now();
    if (!cached || now < cached.at || now - cached.at >= readyCacheMs) {
      cached = {
        at: now,
        result: deps.upstream.listPayments({ limit: 1 }, { companyId: deps.ownCompanyId }),
      };
    }
    return cached.result;
  };
  return new Hono<BffEnv>()
    .get('/healthz', (c) => c.json({ status: 'ok' as const }, 200))
    .get('/readyz', async (c) => {
      await deps.state.ping();
      const result = await probe();
      if (result.ok) return c.json({ status: 'ready' as const }, 200);
      return problemResponse(c, result.failure.code, 503, `not ready: ${result.failure.detail}`);
    });
}
