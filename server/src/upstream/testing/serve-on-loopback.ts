import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';

export interface LoopbackServer {
  origin: string;
  /** Sockets accepted so far: shows whether a client kept its connections alive. */
  connections(): number;
  close(): Promise<void>;
}

/** Serves a Hono app (a scripted upstream, or the BFF) on 127.0.0.1 with a free port, for tests over real HTTP. */
export async function serveOnLoopback(app: {
  fetch: (request: Request) => Response | Promise<Response>;
}): Promise<LoopbackServer> {
  let accepted = 0;
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(s));
  });
  server.on('connection', () => {
    accepted += 1;
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    connections: () => accepted,
    close: () =>
      new Promise<void>((resolve) => {
        if ('closeAllConnections' in server) server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A loopback port nothing listens on, for "connection refused". */
export async function closedPort(): Promise<number> {
  const { createServer } = await import('node:net');
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
