import { randomUUID } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import type { BffEnv } from './bff-env.ts';

export type Logger = (line: string) => void;

export const stdoutLogger: Logger = (line) => {
  process.stdout.write(`${line}\n`);
};

/** One JSON line per log event. Callers pass only fields that are safe to keep: never secrets or cookies. */
export function logEvent(
  logger: Logger,
  level: 'info' | 'warn' | 'error',
  fields: Record<string, unknown>,
): void {
  logger(JSON.stringify({ time: new Date().toISOString(), level, ...fields }));
}

/**
 * One line per request: method, path (never the query, which may hold cursors), status, duration, upstream
 * attempts, user, request id. The id is also returned as `X-Request-Id` so a user's report can be found.
 */
export function requestLog(logger: Logger): MiddlewareHandler<BffEnv> {
  return async (c, next) => {
    const started = performance.now();
    const id = randomUUID();
    c.set('requestId', id);
    c.set('upstreamAttempts', 0);
    await next();
    c.res.headers.set('X-Request-Id', id);
    const status = c.res.status;
    logEvent(logger, status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info', {
      msg: 'request',
      id,
      method: c.req.method,
      path: c.req.path.slice(0, 200),
      status,
      duration_ms: Math.round((performance.now() - started) * 100) / 100,
      upstream_attempts: c.get('upstreamAttempts'),
      user: c.get('user')?.username ?? null,
    });
  };
}
