import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { trustedProxies } from './addresses.ts';
import { limitConnections } from './connection-limits.ts';

let server: Server | undefined;
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
});

/** A server whose `/slow` answers only when `release` is called; `/` at once. */
async function start(limits: { max: number; perAddress: number; proxies?: string[] }) {
  let open = Promise.withResolvers<void>();
  server = createServer(async (request, response) => {
    if (request.url === '/slow') await open.promise;
    response.end('ok');
  });
  limitConnections(server, {
    max: limits.max,
    perAddress: limits.perAddress,
    isProxy: trustedProxies(limits.proxies ?? []),
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    release() {
      open.resolve();
      open = Promise.withResolvers<void>();
    },
    /** A connection from `localAddress`, once the server has taken it. */
    async client(localAddress = '127.0.0.1') {
      const socket = connect({ host: '127.0.0.1', port, localAddress });
      sockets.push(socket);
      let closed = false;
      socket.once('close', () => {
        closed = true;
      });
      socket.on('error', () => {});
      let received = '';
      socket.setEncoding('latin1').on('data', (chunk: string) => {
        received += chunk;
      });
      await once(socket, 'connect');
      // The server accepts a moment after the client sees the connection.
      await sleep(20);
      return {
        closed: () => closed,
        /** A keep-alive GET; resolves once it is answered. */
        async get(path = '/') {
          const before = received.split('ok').length;
          socket.write(`GET ${path} HTTP/1.1\r\nHost: test\r\n\r\n`);
          while (received.split('ok').length === before && !closed) await sleep(5);
        },
        /** Sends a GET that waits for `release`. */
        startSlow() {
          socket.write('GET /slow HTTP/1.1\r\nHost: test\r\n\r\n');
        },
      };
    },
  };
}

describe('connection limits', () => {
  it('a connection beyond the limit closes the one idle longest, not the newest, nor one in use since', async () => {
    const s = await start({ max: 3, perAddress: 100 });
    const a = await s.client();
    const b = await s.client();
    const c = await s.client();
    await b.get();
    await c.get();
    await a.get();
    // Idle longest now: b (a was used last).
    const d = await s.client();
    await sleep(20);
    expect([a.closed(), b.closed(), c.closed(), d.closed()]).toEqual([false, true, false, false]);
    await d.get();
    expect(d.closed()).toBe(false);
  });

  it('a connection opened and left without a request is idle from the start, and goes first', async () => {
    const s = await start({ max: 2, perAddress: 100 });
    const silent = await s.client();
    const used = await s.client();
    await used.get();
    await s.client();
    await sleep(20);
    expect([silent.closed(), used.closed()]).toEqual([true, false]);
  });

  it('connections answering a request are never closed for room: the new one is, when none is idle', async () => {
    const s = await start({ max: 2, perAddress: 100 });
    const a = await s.client();
    const b = await s.client();
    a.startSlow();
    b.startSlow();
    await sleep(20);
    const c = await s.client();
    await sleep(20);
    expect([a.closed(), b.closed(), c.closed()]).toEqual([false, false, true]);
    s.release();
    await sleep(20);
    const d = await s.client();
    await sleep(20);
    expect([a.closed(), b.closed(), d.closed()]).toEqual([true, false, false]);
  });

  it('one address holds at most perAddress connections, giving up its own idle longest; others are not touched', async () => {
    const s = await start({ max: 100, perAddress: 2 });
    const other = await s.client('127.0.0.3');
    const x = await s.client('127.0.0.2');
    const y = await s.client('127.0.0.2');
    await x.get();
    await y.get();
    const z = await s.client('127.0.0.2');
    await sleep(20);
    expect([other.closed(), x.closed(), y.closed(), z.closed()]).toEqual([false, true, false, false]);
  });

  it('a trusted proxy is not held to perAddress', async () => {
    const s = await start({ max: 100, perAddress: 2, proxies: ['127.0.0.9/32'] });
    const viaProxy = [];
    for (let i = 0; i < 5; i++) viaProxy.push(await s.client('127.0.0.9'));
    await sleep(20);
    expect(viaProxy.map((client) => client.closed())).toEqual([false, false, false, false, false]);
  });
});
