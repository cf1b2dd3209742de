import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { createAdaptorServer } from '@hono/node-server';
import type { Settings } from '../config/settings.ts';
import { trustedProxies } from './addresses.ts';
import { limitConnections } from './connection-limits.ts';
import { gracefulCloser } from './graceful-close.ts';

/** A client that has not sent its request's headers by then is not a browser worth waiting for. */
const HEADERS_TIMEOUT_MS = 10_000;
/** The whole request, headers and body (a sign-in's few bytes at most), within this. */
const REQUEST_TIMEOUT_MS = 30_000;
/**
 * Connections the kernel may hold for us before we accept them (capped by net.core.somaxconn). Node's 511 is
 * full within a tenth of a second of a connection flood, and a SYN dropped then costs a newcomer 1 s, or 3 s.
 */
const LISTEN_BACKLOG = 4096;
/** File descriptors kept free of browser connections: upstream sockets, the embedded sandbox, files. */
const RESERVED_DESCRIPTORS = 512;

/**
 * Connections the server accepts at most: what the process may open less what its own work needs, so a crowd of
 * idle connections can never starve the upstream sockets (EMFILE) that every other user's page needs.
 */
export function connectionLimit(limits = readLimits()): number {
  const soft = /^Max open files\s+(\d+)/m.exec(limits)?.[1];
  const descriptors = soft === undefined ? 1024 : Number(soft);
  return Math.max(64, Math.min(16_384, descriptors - RESERVED_DESCRIPTORS));
}

function readLimits(): string {
  try {
    return readFileSync('/proc/self/limits', 'utf8');
  } catch {
    return '';
  }
}

/** Prints one line on stderr and exits 1: how every start failure ends. */
export function stop(line: string): never {
  console.error(line);
  process.exit(1);
}

/** One clear line for a failure to listen, naming the variable that moves the port. */
function listenError(error: unknown, what: string, variable: string, host: string, port: number): never {
  const code = (error as { code?: string }).code;
  if (code === 'EADDRINUSE')
    stop(`${what}: port ${port} on ${host} is already in use (set ${variable} to another port)`);
  if (code === 'EACCES') stop(`${what}: not allowed to listen on ${host}:${port}`);
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') stop(`${what}: cannot listen on ${host}`);
  stop(`${what}: cannot listen on ${host}:${port}: ${code ?? 'unknown error'}`);
}

/** A failure to start the embedded sandbox: a port it cannot listen on, or a bad SANDBOX_* setting. */
export function embeddedStartFailure(error: unknown): never {
  const { code, port } = error as { code?: unknown; port?: unknown };
  if (typeof code === 'string') listenError(error, 'sandbox', 'SANDBOX_PORT', '127.0.0.1', Number(port));
  stop(`config error: ${(error as Error).message}`);
}

/**
 * Serves `app` on host:port until SIGTERM or SIGINT, then drains: no new connections, the requests in flight get
 * `drainSeconds`, `onStop` releases the rest; a second signal stops at once. Resolves with the bound address.
 */
export async function serveUntilSignalled(
  app: { fetch: Parameters<typeof createAdaptorServer>[0]['fetch'] },
  {
    settings,
    onStopping,
    onStop,
  }: {
    /** SHUTDOWN_DRAIN_SECONDS: how long a stop waits for the requests in flight (a page, a download). */
    settings: Pick<
      Settings,
      | 'HOST'
      | 'PORT'
      | 'MAX_CONNECTIONS'
      | 'MAX_CONNECTIONS_PER_ADDRESS'
      | 'KEEP_ALIVE_TIMEOUT'
      | 'TRUST_PROXY'
      | 'SHUTDOWN_DRAIN_SECONDS'
    >;
    onStopping: () => void;
    onStop: () => Promise<unknown>;
  },
): Promise<AddressInfo> {
  const { HOST: host, PORT: port } = settings;
  const server = createAdaptorServer({
    fetch: app.fetch,
    serverOptions: {
      headersTimeout: HEADERS_TIMEOUT_MS,
      requestTimeout: REQUEST_TIMEOUT_MS,
      // Short: an idle connection holds a descriptor and a place under MAX_CONNECTIONS for nothing. Behind a
      // proxy it must outlive the proxy's idle timeout for its upstream connections (README).
      keepAliveTimeout: settings.KEEP_ALIVE_TIMEOUT * 1000,
      connectionsCheckingInterval: 1_000,
    },
  }) as Server;
  limitConnections(server, {
    max: settings.MAX_CONNECTIONS ?? connectionLimit(),
    perAddress: settings.MAX_CONNECTIONS_PER_ADDRESS,
    isProxy: trustedProxies(settings.TRUST_PROXY),
  });
  await new Promise<void>((resolve) => {
    const onListenError = (error: Error) => listenError(error, 'BFF', 'PORT', host, port);
    server.once('error', onListenError);
    server.listen({ port, host, backlog: LISTEN_BACKLOG }, () => {
      // From now on an error (such as running out of file descriptors on accept) is reported, not a start failure.
      server.off('error', onListenError);
      server.on('error', (error) => console.error(`BFF server error: ${error.message}`));
      resolve();
    });
  });
  // Before the first line is printed: whoever reads it may signal us at once.
  const closeServer = gracefulCloser(server);
  let closing = false;
  const shutdown = async () => {
    if (closing) process.exit(1);
    closing = true;
    onStopping();
    await closeServer({ drainMs: settings.SHUTDOWN_DRAIN_SECONDS * 1000 });
    // Nobody waits for what is still asked of the upstream (a readiness probe): a short wait, not its timeout.
    await Promise.race([onStop(), sleep(1_000)]);
    // The lines written last (a minute's refused sign-ins, hundreds at once) may still wait for a pipe that is
    // full: process.exit would drop them.
    await new Promise((resolve) => process.stdout.write('', resolve));
    process.exit(0);
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
  return server.address() as AddressInfo;
}
