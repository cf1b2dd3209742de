import type { Server } from 'node:http';

export interface GracefulClose {
  /** Resolves once every connection is gone: 'drained' when the requests in flight all finished, else 'forced'. */
  done: Promise<'drained' | 'forced'>;
  /** Ends what is still open now (a second Ctrl-C). */
  force(): void;
}

/**
 * Stops `server` the way a rolling deploy needs: no new connections, idle keep-alive connections closed at once and
 * each busy one as soon as its response is done, so the requests in flight (a page, a CSV download) finish. Whatever
 * is still open after `drainMs` is cut, so a stuck download cannot hold the process past its grace period.
 */
export function closeGracefully(server: Server, { drainMs }: { drainMs: number }): GracefulClose {
  let forced = false;
  const force = () => {
    forced = true;
    server.closeAllConnections();
  };
  const done = new Promise<'drained' | 'forced'>((resolve) => {
    // `close` closes the idle connections itself; a busy one turns idle when its response ends, and is closed by
    // the next sweep (a client may send its next request first: that request is answered, then the sweep closes).
    const sweep = setInterval(() => server.closeIdleConnections(), 100);
    const deadline = setTimeout(force, drainMs);
    server.close(() => {
      clearInterval(sweep);
      clearTimeout(deadline);
      resolve(forced ? 'forced' : 'drained');
    });
  });
  return { done, force };
}
