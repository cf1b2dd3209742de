import { randomUUID } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import type { BffEnv } from './bff-env.ts';
import type { Defer } from './housekeeping.ts';

export type Logger = (line: string) => void;

/**
 * A logger that writes its lines in batches: at most `delayMs` after the first line of a batch, or at once when
 * `maxBytes` are pending, and whatever is pending when the process exits. A write to stdout is a system call that
 * blocks (for a file, and for a pipe on Linux), and on a virtual machine each one costs tens of microseconds: made
 * once per request, it sat on every request's path. A line can show up to `delayMs` late; only a process killed
 * outright (SIGKILL) can lose the last batch.
 */
export function batchingLogger(
  write: (text: string) => void,
  { delayMs = 50, maxBytes = 64 * 1024 }: { delayMs?: number; maxBytes?: number } = {},
): Logger & { flush(): void } {
  let pending: string[] = [];
  let pendingBytes = 0;
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    if (pending.length === 0) return;
    const text = `${pending.join('\n')}\n`;
    pending = [];
    pendingBytes = 0;
    write(text);
  };
  process.on('exit', flush);
  const log = (line: string) => {
    pending.push(line);
    pendingBytes += line.length + 1;
    if (pendingBytes >= maxBytes) flush();
    // Unreferenced: a pending batch never keeps the process alive (the exit handler writes it).
    else timer ??= setTimeout(flush, delayMs).unref();
  };
  return Object.assign(log, { flush });
}

export const stdoutLogger: Logger = batchingLogger((text) => process.stdout.write(text));

/** One JSON line per log event. Callers pass only fields that are safe to keep: never secrets or cookies. */
export function logEvent(
  logger: Logger,
  level: 'info' | 'warn' | 'error',
  fields: Record<string, unknown>,
  time = Date.now(),
): void {
  logger(JSON.stringify({ time: new Date(time).toISOString(), level, ...fields }));
}

/**
 * One line per request: method, path (never the query, which may hold cursors), status, duration, upstream
 * attempts, user, request id. The id is also returned as `X-Request-Id` (security-headers.ts sets it) so that a
 * user's report can be found.
 */
export function requestLog(logger: Logger, defer: Defer): MiddlewareHandler<BffEnv> {
  return async (c, next) => {
    const started = performance.now();
    const id = randomUUID();
    c.set('requestId', id);
    c.set('upstreamAttempts', 0);
    await next();
    const time = Date.now();
    const status = c.res.status;
    const fields = {
      msg: 'request',
      id,
      method: c.req.method,
      path: c.req.path.slice(0, 200),
      status,
      duration_ms: Math.round((performance.now() - started) * 100) / 100,
      upstream_attempts: c.get('upstreamAttempts'),
      user: c.get('user')?.username ?? null,
    };
    // Written out later, by the housekeeping (see housekeeping.ts), not while anyone waits for this process.
    const level = status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info';
    defer(() => logEvent(logger, level, fields, time));
  };
}
