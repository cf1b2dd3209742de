import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { closeGracefully } from './graceful-close.ts';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

/** A server whose `/slow?ms=N` answers after N ms, on a loopback port; and a keep-alive client for it. */
async function slowServer(): Promise<{ server: Server; get: (path: string) => Promise<number> }> {
  const server = createServer((req, res) => {
    const ms = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('ms') ?? 0);
    setTimeout(() => res.end('done'), ms);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const agent = new Agent({ keepAliveTimeout: 30_000 });
  cleanups.push(
    () => agent.destroy(),
    () => new Promise((resolve) => server.close(resolve)),
  );
  const get = async (path: string) => {
    const response = await request(`${origin}${path}`, { dispatcher: agent });
    await response.body.text();
    return response.statusCode;
  };
  return { server, get };
}

describe('closeGracefully', () => {
  it('lets a request in flight finish, closes the idle keep-alive connection, then refuses new ones', async () => {
    const { server, get } = await slowServer();
    expect(await get('/slow?ms=0')).toBe(200); // leaves an idle keep-alive connection behind
    const inFlight = get('/slow?ms=400');
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = Date.now();
    const { done } = closeGracefully(server, { drainMs: 5_000 });
    expect(await inFlight).toBe(200);
    expect(await done).toBe('drained');
    expect(Date.now() - started).toBeLessThan(2_000);
    await expect(get('/slow?ms=0')).rejects.toThrow();
  });

  it('cuts a request still running when the drain time is up', async () => {
    const { server, get } = await slowServer();
    const inFlight = get('/slow?ms=10000').catch(() => 'cut');
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = Date.now();
    const { done } = closeGracefully(server, { drainMs: 300 });
    expect(await done).toBe('forced');
    expect(await inFlight).toBe('cut');
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('cuts everything at once when forced (a second Ctrl-C)', async () => {
    const { server, get } = await slowServer();
    const inFlight = get('/slow?ms=10000').catch(() => 'cut');
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = Date.now();
    const closing = closeGracefully(server, { drainMs: 20_000 });
    closing.force();
    expect(await closing.done).toBe('forced');
    expect(await inFlight).toBe('cut');
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});
