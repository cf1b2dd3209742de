import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { addressGroup, type ProxyTest } from './addresses.ts';

interface Tracked {
  socket: Socket;
  /** The client's address group, or null for a trusted proxy. */
  group: string | null;
  /** Requests of this connection being answered (more than one when pipelined). */
  answering: number;
  idle: boolean;
  /** Its places in the idle line of all connections and in its address's. */
  inAll: Place;
  inAddress: Place;
}

interface Place {
  tracked: Tracked;
  prev: Place | null;
  next: Place | null;
}

/**
 * Connections in the order they fell idle, the one idle longest first: a list linked through the connections'
 * places, so that taking the first, adding at the end and leaving from the middle cost the same whatever the
 * length (a crowd of 16,000 turns over thousands of times a second).
 */
function idleLine() {
  let first: Place | null = null;
  let last: Place | null = null;
  return {
    oldest: () => first?.tracked ?? null,
    push(place: Place) {
      place.prev = last;
      place.next = null;
      if (last) last.next = place;
      else first = place;
      last = place;
    },
    remove(place: Place) {
      if (place.prev) place.prev.next = place.next;
      else first = place.next;
      if (place.next) place.next.prev = place.prev;
      else last = place.prev;
      place.prev = null;
      place.next = null;
    },
  };
}
type IdleLine = ReturnType<typeof idleLine>;

/**
 * Keeps `server` within `max` connections, and each client address (IPv6 by its /64) within `perAddress`. A
 * connection is idle while no request of its is being answered (before its first, between keep-alive
 * requests). When a new connection passes a limit, the connection idle longest under that limit is closed to
 * make room, so a crowd of idle connections (opened and left, or kept alive after one request) gives way to
 * whoever comes next instead of keeping them out; only when none is idle does the new one go, before any HTTP
 * is set up for it. The proxies of TRUST_PROXY are not held to `perAddress`: every client behind them shares
 * their address.
 */
export function limitConnections(
  server: Server,
  { max, perAddress, isProxy }: { max: number; perAddress: number; isProxy: ProxyTest },
): void {
  const open = new Map<Socket, Tracked>();
  const idle = idleLine();
  const byAddress = new Map<string, { count: number; idle: IdleLine }>();

  const setIdle = (tracked: Tracked) => {
    if (tracked.idle) return;
    tracked.idle = true;
    idle.push(tracked.inAll);
    if (tracked.group !== null) byAddress.get(tracked.group)?.idle.push(tracked.inAddress);
  };
  const setBusy = (tracked: Tracked) => {
    if (!tracked.idle) return;
    tracked.idle = false;
    idle.remove(tracked.inAll);
    if (tracked.group !== null) byAddress.get(tracked.group)?.idle.remove(tracked.inAddress);
  };
  /** Forgets a connection once, whether it closed or is being closed to make room. */
  const release = (tracked: Tracked) => {
    if (!open.delete(tracked.socket)) return;
    setBusy(tracked);
    if (tracked.group === null) return;
    const address = byAddress.get(tracked.group);
    if (address && --address.count === 0) byAddress.delete(tracked.group);
  };
  const close = (tracked: Tracked) => {
    release(tracked);
    tracked.socket.destroy();
  };

  // Before the HTTP server's own listener: a connection refused here never gets a parser.
  server.prependListener('connection', (socket: Socket) => {
    const remote = socket.remoteAddress ?? 'unknown';
    const group = isProxy(remote) ? null : addressGroup(remote);
    const address = group === null ? undefined : byAddress.get(group);
    const overAddress = address !== undefined && address.count >= perAddress;
    const overAll = open.size >= max;
    const mine = overAddress ? address.idle.oldest() : null;
    // The connection idle longest gives way: the address's own first, then anyone's.
    if (overAddress && mine === null) return void socket.destroy();
    if (mine) close(mine);
    if (overAll && !overAddress) {
      const oldest = idle.oldest();
      if (oldest === null) return void socket.destroy();
      close(oldest);
    }
    const tracked = { socket, group, answering: 0, idle: false } as Tracked;
    tracked.inAll = { tracked, prev: null, next: null };
    tracked.inAddress = { tracked, prev: null, next: null };
    open.set(socket, tracked);
    if (group !== null) {
      const entry = byAddress.get(group) ?? { count: 0, idle: idleLine() };
      byAddress.set(group, entry);
      entry.count += 1;
    }
    socket.once('close', () => release(tracked));
    setIdle(tracked);
  });

  server.on('request', (request, response) => {
    const tracked = open.get(request.socket);
    if (tracked === undefined) return;
    tracked.answering += 1;
    setBusy(tracked);
    response.once('close', () => {
      tracked.answering -= 1;
      if (tracked.answering === 0 && open.has(tracked.socket)) setIdle(tracked);
    });
  });
}
