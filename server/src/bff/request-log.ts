import { randomUUID } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import type { BffEnv } from './bff-env.ts';

export type Logger = (line: string) => void;

/**
 * A logger that writes its lines in batches, once per turn of the event loop, after the responses of that turn
 * have gone out: a write to stdout is a system call that blocks (for a file, and for a pipe on Linux), and made
 * inside each request it was on every response's path. Whatever is pending is written before the process exits.
 */
export function batchingLogger(write: (text: string) => void): Logger & { flush(): void } {
  let pending: string[] = [];
  const flush = () => {
    if (pending.length === 0) return;
    const text = `${pending.join('\n')}\n`;
    pending = [];
    write(text);
  };
  process.on('exit', flush);
  const log = (line: string) => {
    if (pending.push(line) === 1) setImmediate(flush);
  };
  return Object.assign(log, { flush });
}

export const stdoutLogger: Logger = batchingLogger((text) => process.stdout.write(text));

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
