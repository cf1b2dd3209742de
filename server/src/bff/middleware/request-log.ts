import type { MiddlewareHandler } from 'hono';
import { type Logger, logEvent } from '../../runtime/logger.ts';
import type { BffEnv } from '../bff-env.ts';

/**
 * One line per request: method, path (never the query, which may hold cursors), status, duration, upstream
 * attempts, user, and the request id the answer carries as `X-Request-Id`, so that a user's report can be found.
 */
export function requestLog(logger: Logger): MiddlewareHandler<BffEnv> {
  return async (c, next) => {
    const started = performance.now();
    c.set('upstreamAttempts', 0);
    await next();
    const status = c.res.status;
    logEvent(logger, status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info', {
      msg: 'request',
      id: c.get('requestId'),
      method: c.req.method,
      path: c.req.path.slice(0, 200),
      status,
      duration_ms: Math.round((performance.now() - started) * 10) / 10,
      upstream_attempts: c.get('upstreamAttempts'),
      user: c.get('user')?.username ?? null,
    });
  };
}
