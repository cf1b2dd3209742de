import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * What operators read of the BFF's work against the upstream, in Prometheus's text format: one registry per
 * process (made by the composition), served on a loopback port of its own, never on the public one.
 */
export function createMetrics() {
  const registry = new Registry();
  const registers = [registry];
  return {
    registry,
    upstreamRequests: new Counter({
      name: 'payments_upstream_requests_total',
      help: 'Attempts sent to the Payments API, by how they ended (HTTP status or fault) and by class.',
      labelNames: ['outcome', 'class'] as const,
      registers,
    }),
    upstreamSeconds: new Histogram({
      name: 'payments_upstream_request_seconds',
      help: 'How long an attempt at the Payments API took, by class.',
      labelNames: ['class'] as const,
      buckets: [0.025, 0.05, 0.1, 0.2, 0.4, 0.8, 1.6, 3.2, 6.4],
      registers,
    }),
    budgetWaitSeconds: new Histogram({
      name: 'payments_upstream_budget_wait_seconds',
      help: 'How long an attempt waited for its turn in the upstream budget, by class.',
      labelNames: ['class'] as const,
      buckets: [0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    }),
    upstreamRefused: new Counter({
      name: 'payments_upstream_rate_limited_total',
      help: 'Attempts the Payments API refused with 429.',
      registers,
    }),
    sharedAnswers: new Counter({
      name: 'payments_upstream_shared_answers_total',
      help: 'Requests answered by an identical call in flight or by a page fetched moments before.',
      labelNames: ['how'] as const,
      registers,
    }),
    checkpoints: new Counter({
      name: 'payments_checkpoints_total',
      help: 'Remembered positions: a walk that started from one (hit), found none (miss) or dropped one (dropped).',
      labelNames: ['result'] as const,
      registers,
    }),
    cursorLifetime: new Gauge({
      name: 'payments_upstream_cursor_ttl_seconds',
      help: 'How long the upstream keeps a cursor, as configured (UPSTREAM_CURSOR_TTL) or learned from its refusals.',
      labelNames: ['source'] as const,
      registers,
    }),
    walksRunning: new Gauge({
      name: 'payments_walks_running',
      help: 'Walks of the upstream under way in this process (summaries, exports, searches, skipping lists).',
      labelNames: ['kind'] as const,
      registers,
    }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

/** `GET /metrics` on 127.0.0.1:`port`, for Prometheus; anything else 404. */
export async function serveMetrics(
  metrics: Metrics,
  port: number,
): Promise<{ port: number; close(): Promise<void> }> {
  const server: Server = createServer((request, response) => {
    if (request.method !== 'GET' || request.url !== '/metrics') {
      response.writeHead(404).end();
      return;
    }
    metrics.registry.metrics().then(
      (text) => response.writeHead(200, { 'content-type': metrics.registry.contentType }).end(text),
      () => response.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
