import { createServer, type RequestListener, type Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { Agent, request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { gracefulCloser } from './graceful-close.ts';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A loopback server for `handle`, watched by gracefulCloser from the start; and a keep-alive client for it. */
async function serve(handle: RequestListener) {
  const server: Server = createServer(handle);
  const close = gracefulCloser(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const agent = new Agent({ keepAliveTimeout: 30_000 });
  cleanups.push(
    () => agent.destroy(),
    () => new Promise((resolve) => server.close(resolve)),
  );
  const get = async (path: string) => {
    const response = await request(`http://127.0.0.1:${port}${path}`, { dispatcher: agent });
    await response.body.text();
    return { status: response.statusCode, connection: response.headers.connection };
  };
  return { close, port, get };
}

/** `/slow?ms=N` answers after N ms. */
const slow: RequestListener = (req, res) => {
  const ms = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('ms') ?? 0);
  setTimeout(() => res.end('done'), ms);
};

describe('gracefulCloser', () => {
  it('lets a request in flight finish, closes the idle keep-alive connection, then refuses new ones', async () => {
    const { close, get } = await serve(slow);
    expect((await get('/slow?ms=0')).status).toBe(200); // leaves an idle keep-alive connection behind
    const inFlight = get('/slow?ms=400');
    await sleep(100);
    const started = Date.now();
    const done = close({ drainMs: 5_000 });
    expect((await inFlight).status).toBe(200);
    expect(await done).toBe('drained');
    expect(Date.now() - started).toBeLessThan(2_000);
    await expect(get('/slow?ms=0')).rejects.toThrow();
  });

  it('ends each busy connection once its answer is sent: Connection: close if the headers were still to go', async () => {
    const { close, get } = await serve((req, res) => {
      // `/streaming` sends its headers at once and its body later; `/slow` sends everything later.
      if (req.url === '/streaming') res.writeHead(200);
      setTimeout(() => res.end('done'), 300);
    });
    const streaming = get('/streaming');
    const waiting = get('/slow');
    await sleep(100);
    const started = Date.now();
    const done = close({ drainMs: 10_000 });
    expect(await streaming).toEqual({ status: 200, connection: 'keep-alive' });
    expect(await waiting).toEqual({ status: 200, connection: 'close' });
    // Not held open until the keep-alive timeout (5 s).
    expect(await done).toBe('drained');
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it.each([
    ['before', 0],
    ['during', 200],
  ])(
    'sends a large answer whole to a client reading slowly, though it ended %s the drain',
    async (_when, endAt) => {
      const size = 8 * 1024 * 1024;
      const { close, port } = await serve((_req, res) => {
        setTimeout(() => {
          res.writeHead(200, { 'content-length': String(size) });
          res.end(Buffer.alloc(size, 0x61));
        }, endAt);
      });
      const client = connect(port, '127.0.0.1');
      let received = 0;
      client.on('data', (chunk: Buffer) => {
        received += chunk.length;
      });
      const closed = new Promise((resolve) => client.on('close', resolve));
      client.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
      client.pause();
      setTimeout(() => client.resume(), 800); // starts reading long after the response ended
      await sleep(100);
      const done = close({ drainMs: 10_000 });
      await closed;
      expect(received).toBeGreaterThan(size);
      expect(await done).toBe('drained');
    },
  );

  it('cuts a request still running when the drain time is up', async () => {
    const { close, get } = await serve(slow);
    const inFlight = get('/slow?ms=10000').catch(() => 'cut');
    await sleep(100);
    const started = Date.now();
    expect(await close({ drainMs: 300 })).toBe('forced');
    expect(await inFlight).toBe('cut');
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});
