import type { Server, ServerResponse } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';

/**
 * Watches `server`'s connections and responses from its start, so that `close` can stop it the way a rolling deploy
 * needs: no new connections; idle ones closed at once; a busy one closed as soon as its responses are sent in full,
 * so a page or a CSV download under way finishes; whatever is still open after `drainMs` cut. The promise says
 * which: 'drained' when every response was sent, 'forced' when some were cut.
 *
 * Node's own `server.close()` does not do this: it destroys every connection whose response has ended, and ended
 * is not sent. A large answer still in the socket's buffer for a slow client was cut short.
 */
export function gracefulCloser(
  server: Server,
): (options: { drainMs: number }) => Promise<'drained' | 'forced'> {
  /** Responses not yet sent in full, by connection. */
  const busy = new Map<Socket, Set<ServerResponse>>();
  const connections = new Set<Socket>();
  let closing = false;

  server.on('connection', (socket: Socket) => {
    connections.add(socket);
    socket.once('close', () => connections.delete(socket));
  });
  server.prependListener('request', (request, response) => {
    const socket = request.socket;
    // A response that starts while closing says `Connection: close`; Node then ends its connection once it is sent.
    if (closing) response.shouldKeepAlive = false;
    const responses = busy.get(socket) ?? new Set<ServerResponse>();
    busy.set(socket, responses);
    responses.add(response);
    // 'close' comes after the last byte was handed to the system, or when the connection is gone first.
    response.once('close', () => {
      responses.delete(response);
      if (responses.size > 0) return;
      busy.delete(socket);
      if (closing) socket.end();
    });
  });

  return ({ drainMs }) => {
    closing = true;
    for (const responses of busy.values())
      for (const response of responses) if (!response.headersSent) response.shouldKeepAlive = false;
    for (const socket of connections) if (!busy.has(socket)) socket.end();
    return new Promise((resolve) => {
      let forced = false;
      let cut: Promise<unknown> = Promise.resolve();
      const deadline = setTimeout(() => {
        forced = true;
        // A destroyed socket's own 'close', which ends the response it carried (and so logs it), comes after the
        // server's: waited for, or the process would exit before those lines are written.
        cut = Promise.all(
          [...connections].map((socket) => new Promise((done) => socket.once('close', done))),
        );
        for (const socket of connections) socket.destroy();
      }, drainMs);
      // net's close, not http's: it stops accepting and waits for the connections, without destroying any.
      NetServer.prototype.close.call(server, () => {
        clearTimeout(deadline);
        void cut.then(() => setImmediate(() => resolve(forced ? 'forced' : 'drained')));
      });
    });
  };
}
