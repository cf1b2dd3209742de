import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startSandbox } from '@payments/server/sandbox';
import type { Company } from '@payments/shared';

export interface CountingUpstream {
  /** The proxy's address, version segment included, for PAYMENTS_BASE_URL. */
  baseUrl: string;
  credentials: { secretId: string; secretPassword: string };
  companies: Company[];
  /** List pages the sandbox answered with 200, by the `limit` they asked for (an export asks for 100). */
  pages(limit: number): number;
  /** Every request that reached the sandbox, whatever it asked and however it was answered. */
  requests(): number;
  /** The most requests asking for `limit` that were in flight at once (sent on, not yet answered in full). */
  peakInFlight(limit: number): number;
  /** Starts the peaks again from what is in flight now. */
  resetPeaks(): void;
  close(): Promise<void>;
}

/**
 * The sandbox as `pnpm sandbox` serves it, behind a tiny HTTP proxy that counts the pages the BFF fetched: what a
 * slow download costs the upstream is read here, not taken from the BFF's own word.
 */
export async function startCountingUpstream(options: {
  seedCount: number;
  seedWeights?: Record<string, number>;
}): Promise<CountingUpstream> {
  const running = await startSandbox({ ...options, port: 0 });
  const tenant = running.sandbox.tenants[0];
  if (!tenant) throw new Error('the sandbox has no tenant');
  const target = new URL(running.baseUrl);
  const agent = new Agent({ keepAlive: true });
  const counts = new Map<string, number>();
  const inFlight = new Map<string, number>();
  const peaks = new Map<string, number>();
  let requests = 0;
  const proxy = createServer((incoming, outgoing) => {
    requests += 1;
    const limit = new URL(incoming.url ?? '/', 'http://proxy').searchParams.get('limit') ?? '';
    const now = (inFlight.get(limit) ?? 0) + 1;
    inFlight.set(limit, now);
    peaks.set(limit, Math.max(peaks.get(limit) ?? 0, now));
    outgoing.once('close', () => inFlight.set(limit, (inFlight.get(limit) ?? 1) - 1));
    const forward = request(
      {
        host: target.hostname,
        port: target.port,
        method: incoming.method,
        path: incoming.url,
        headers: incoming.headers,
        agent,
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
        answer.once('end', () => {
          if (answer.statusCode === 200) counts.set(limit, (counts.get(limit) ?? 0) + 1);
        });
      },
    );
    forward.once('error', () => outgoing.destroy());
    incoming.pipe(forward);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const { port } = proxy.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    credentials: { secretId: tenant.secretId, secretPassword: tenant.secretPassword },
    companies: tenant.companies,
    pages: (limit) => counts.get(String(limit)) ?? 0,
    requests: () => requests,
    peakInFlight: (limit) => peaks.get(String(limit)) ?? 0,
    resetPeaks: () => {
      for (const [limit, now] of inFlight) peaks.set(limit, now);
    },
    async close() {
      proxy.closeAllConnections();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
      agent.destroy();
      await running.close();
    },
  };
}
