import type { MiddlewareHandler } from 'hono';

export interface RequestStats {
  requests: number;
  by_status: Record<string, number>;
}

/** Counts requests by the status they were answered with: what `GET /_sandbox/stats` reports of `/v1/*`. */
export function createRequestStats() {
  let requests = 0;
  const byStatus = new Map<number, number>();
  const count: MiddlewareHandler = async (c, next) => {
    try {
      await next();
    } finally {
      requests += 1;
      byStatus.set(c.res.status, (byStatus.get(c.res.status) ?? 0) + 1);
    }
  };
  return {
    count,
    snapshot(): RequestStats {
      const sorted = [...byStatus].sort(([a], [b]) => a - b);
      return { requests, by_status: Object.fromEntries(sorted.map(([status, n]) => [String(status), n])) };
    },
  };
}
