import type { MiddlewareHandler } from 'hono';
import { type Logger, logEvent } from '../../runtime/logger.ts';
import type { BffEnv } from '../bff-env.ts';

const MINUTE_MS = 60_000;
/** Addresses counted apart in one minute; beyond, the rest share one line (a flood from a million addresses). */
const MAX_ADDRESSES_A_MINUTE = 10_000;

/**
 * Refused sign-ins counted per address and minute: a guessing flood wrote one line per attempt (351,295 lines,
 * 75 MB in minutes), burying everything else and filling disks. Each minute ends with one `sign_in_refused`
 * line per address: how many, by problem code.
 */
export function refusedSignIns(logger: Logger, now: () => number = Date.now) {
  let minute = Math.floor(now() / MINUTE_MS);
  let counts = new Map<string, { count: number; codes: Record<string, number> }>();

  const flush = () => {
    const start = new Date(minute * MINUTE_MS).toISOString();
    for (const [address, { count, codes }] of counts)
      logEvent(logger, 'warn', { msg: 'sign_in_refused', minute: start, address, count, codes });
    counts = new Map();
  };
  const rollOver = () => {
    const current = Math.floor(now() / MINUTE_MS);
    if (current === minute) return;
    flush();
    minute = current;
  };
  // A quiet minute after a busy one still gets its lines, within seconds of its end.
  setInterval(rollOver, 5_000).unref();

  return {
    count(address: string, code: string) {
      rollOver();
      const key = counts.has(address) || counts.size < MAX_ADDRESSES_A_MINUTE ? address : 'other addresses';
      const entry = counts.get(key) ?? { count: 0, codes: {} };
      entry.count += 1;
      entry.codes[code] = (entry.codes[code] ?? 0) + 1;
      counts.set(key, entry);
    },
    /** Writes what was counted so far: the process is stopping. */
    flush,
  };
}

type RefusedSignIns = ReturnType<typeof refusedSignIns>;

/**
 * One line per request: method, path (never the query, which may hold cursors), status, the problem's code,
 * duration, upstream attempts, user, and the request id the answer carries as `X-Request-Id`, so that a user's
 * report can be found. A refused sign-in is counted by `refused` instead.
 *
 * @example
 * ```ts
 * const isSignIn = (method: string, path: string) => method === 'POST' && path === '/api/session';
 * const app = new Hono<BffEnv>()
 *   .use(requestLog(logger, { signIns: refusedSignIns(logger), isSignIn }))
 *   .get('/api/config', (c) => c.json({}));
 * await app.request('/api/config'); // logs {"msg":"request","method":"GET","path":"/api/config","status":200,…}
 * ```
 */
export function requestLog(
  logger: Logger,
  refused: { signIns: RefusedSignIns; isSignIn: (method: string, path: string) => boolean },
): MiddlewareHandler<BffEnv> {
  return async (c, next) => {
    const started = performance.now();
    c.set('upstreamAttempts', 0);
    await next();
    const status = c.res.status;
    const code = c.get('problem');
    if (status >= 400 && status < 500 && refused.isSignIn(c.req.method, c.req.path))
      return refused.signIns.count(c.get('address'), code ?? String(status));
    logEvent(logger, status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info', {
      msg: 'request',
      id: c.get('requestId'),
      method: c.req.method,
      path: c.req.path.slice(0, 200),
      status,
      ...(code ? { code } : {}),
      duration_ms: Math.round((performance.now() - started) * 10) / 10,
      upstream_attempts: c.get('upstreamAttempts'),
      user: c.get('user')?.username ?? null,
    });
  };
}
