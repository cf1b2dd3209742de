import { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';
import { scriptedUpstream } from './testing/scripted-upstream.ts';
import { closedPort, type LoopbackServer, serveOnLoopback } from './testing/serve-on-loopback.ts';
import {
  createUpstreamClient,
  type UpstreamClientOptions,
  type UpstreamLogEvent,
} from './upstream-client.ts';

const credentials = { secretId: 'client-id-7', secretPassword: 'very-secret-password' };
const page = { data: [{ id: 'p1', amount: 5 }], next_cursor: null, has_more: false };
const cleanups: Array<() => Promise<void>> = [];

afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

async function upstream(app: Hono): Promise<LoopbackServer> {
  const server = await serveOnLoopback(app);
  cleanups.push(server.close);
  return server;
}

function client(baseUrl: string, extra: Partial<UpstreamClientOptions> = {}) {
  const c = createUpstreamClient({
    baseUrl,
    credentials,
    ownCompanyId: 'root',
    attemptTimeoutMs: 2_000,
    deadlineMs: 5_000,
    backoffBaseMs: 10,
    backoffCapMs: 50,
    ...extra,
  });
  cleanups.push(c.close);
  return c;
}

const first = { limit: 10 };
const ctx = { companyId: 'root' };

describe('upstream client: failures end in the right problem code', () => {
  it('a refused connection is retried, then reported as upstream_unavailable', async () => {
    const result = await client(`http://127.0.0.1:${await closedPort()}/v1`).listPayments(first, ctx);
    expect(result).toMatchObject({
      ok: false,
      attempts: 4,
      failure: { code: 'upstream_unavailable', status: 502 },
    });
  });

  it('an upstream that never answers ends as upstream_timeout within the deadline', async () => {
    const { app } = scriptedUpstream(() => new Promise<Response>(() => {}));
    const server = await upstream(app);
    const started = Date.now();
    const result = await client(`${server.origin}/v1`, {
      attemptTimeoutMs: 150,
      deadlineMs: 600,
    }).listPayments(first, ctx);
    expect(result).toMatchObject({ ok: false, failure: { code: 'upstream_timeout', status: 504 } });
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it('an attempt is bounded as a whole: a body trickled out byte by byte times out and is retried', async () => {
    const trickle = () =>
      new Response(
        new ReadableStream({
          async pull(controller) {
            await new Promise((resolve) => setTimeout(resolve, 50));
            controller.enqueue(new TextEncoder().encode(' '));
          },
        }),
        { headers: { 'content-type': 'application/json' } },
      );
    const fake = scriptedUpstream(trickle);
    const server = await upstream(fake.app);
    const started = Date.now();
    const result = await client(`${server.origin}/v1`, {
      attemptTimeoutMs: 300,
      deadlineMs: 1_000,
    }).listPayments(first, ctx);
    expect(result).toMatchObject({ ok: false, failure: { code: 'upstream_timeout', status: 504 } });
    expect(result.attempts).toBeGreaterThan(1);
    expect(fake.calls()).toBe(result.attempts);
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it('a 500 is not retried and becomes upstream_unavailable', async () => {
    const fake = scriptedUpstream(() => new Response('boom', { status: 500 }));
    const server = await upstream(fake.app);
    const result = await client(`${server.origin}/v1`).listPayments(first, ctx);
    expect(result).toMatchObject({ ok: false, attempts: 1, failure: { code: 'upstream_unavailable' } });
    expect(fake.calls()).toBe(1);
  });

  it('a 503 followed by a good page is retried and succeeds', async () => {
    const fake = scriptedUpstream(
      () => new Response('busy', { status: 503 }),
      () => Response.json(page),
    );
    const server = await upstream(fake.app);
    const result = await client(`${server.origin}/v1`).listPayments(first, ctx);
    expect(result).toEqual({ ok: true, value: page, attempts: 2 });
  });

  it("gives a page for forwarding as its records' JSON text, with the envelope's cursor and has_more", async () => {
    const fake = scriptedUpstream(() => Response.json({ ...page, has_more: true, next_cursor: 'next-1' }));
    const server = await upstream(fake.app);
    const result = await client(`${server.origin}/v1`).listPaymentsJson(first, ctx);
    expect(result).toEqual({
      ok: true,
      attempts: 1,
      value: { data: Buffer.from(JSON.stringify(page.data)), next_cursor: 'next-1', has_more: true },
    });
  });

  it.each([
    ['declares', true],
    ['streams, undeclared,', false],
  ])(
    'a body that %s more than 8 MB is refused as upstream_bad_response, without reading it all',
    async (_how, declared) => {
      const chunk = new Uint8Array(1024 * 1024).fill(0x20);
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          // Far past the bound, so a client that read on to the end would be seen sending all of it.
          if (sent >= 64) controller.close();
          else {
            sent += 1;
            controller.enqueue(chunk);
          }
        },
      });
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (declared) headers['content-length'] = String(64 * chunk.length);
      const { app } = scriptedUpstream(() => new Response(body, { headers }));
      const server = await upstream(app);
      const result = await client(`${server.origin}/v1`, { maxRetries: 0 }).listPaymentsJson(first, ctx);
      expect(result).toMatchObject({ ok: false, failure: { code: 'upstream_bad_response', status: 502 } });
      expect(sent).toBeLessThan(64);
    },
  );

  it('gives each forwarded page bytes of its own, untouched by the bodies read after it', async () => {
    const pages = [
      { data: [{ id: 'first-page' }], next_cursor: 'c1', has_more: true },
      { data: [{ id: 'second' }], next_cursor: null, has_more: false },
    ];
    const fake = scriptedUpstream(
      () => Response.json(pages[0]),
      () => Response.json(pages[1]),
    );
    const server = await upstream(fake.app);
    const api = client(`${server.origin}/v1`);
    const first = await api.listPaymentsJson({ limit: 1 }, ctx);
    const second = await api.listPaymentsJson({ limit: 1 }, ctx);
    expect(first.ok && Buffer.from(first.value.data).toString()).toBe(JSON.stringify(pages[0]?.data));
    expect(second.ok && Buffer.from(second.value.data).toString()).toBe(JSON.stringify(pages[1]?.data));
  });

  it('keeps of a page only what validation accepted: no other members, no __proto__ keys, no byte order mark', async () => {
    const fake = scriptedUpstream(
      () => Response.json({ ...page, debug: { sql: 'select 1' } }),
      // JSON.parse keeps an own __proto__ key as data; the dashboard's records never carry one.
      () =>
        new Response(
          '{"data":[{"id":"p1","amount":5,"__proto__":{"x":1}}],"next_cursor":null,"has_more":false}',
          {
            headers: { 'content-type': 'application/json' },
          },
        ),
      () =>
        new Response(`\ufeff${JSON.stringify(page)}`, { headers: { 'content-type': 'application/json' } }),
    );
    const server = await upstream(fake.app);
    const api = client(`${server.origin}/v1`);
    expect(await api.listPayments(first, ctx)).toEqual({ ok: true, value: page, attempts: 1 });
    const withProto = await api.listPayments(first, ctx);
    expect(withProto).toEqual({ ok: true, value: page, attempts: 1 });
    expect(withProto.ok && Object.hasOwn(withProto.value.data[0] ?? {}, '__proto__')).toBe(false);
    // A byte order mark is not part of the JSON text (as in Response.text()).
    expect(await api.listPayments(first, ctx)).toEqual({ ok: true, value: page, attempts: 1 });
  });

  it('a 429 with Retry-After is waited out before the retry', async () => {
    const fake = scriptedUpstream(
      () => new Response('slow down', { status: 429, headers: { 'Retry-After': '1' } }),
      () => Response.json(page),
    );
    const server = await upstream(fake.app);
    const started = Date.now();
    const result = await client(`${server.origin}/v1`).listPayments(first, ctx);
    expect(result.ok).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(990);
  });

  it('a 429 whose Retry-After passes the deadline becomes rate_limited carrying the wait', async () => {
    const fake = scriptedUpstream(
      () => new Response('{}', { status: 429, headers: { 'Retry-After': '30' } }),
    );
    const server = await upstream(fake.app);
    const result = await client(`${server.origin}/v1`).listPayments(first, ctx);
    expect(result).toMatchObject({
      ok: false,
      attempts: 1,
      failure: { code: 'rate_limited', status: 503, retryAfterSeconds: 30 },
    });
  });

  it.each([
    ['malformed JSON', () => new Response('{"data": [', { status: 200 })],
    [
      'has_more=true with a null cursor',
      () => Response.json({ data: [], has_more: true, next_cursor: null }),
    ],
    ['has_more=false with a cursor', () => Response.json({ data: [], has_more: false, next_cursor: 'x' })],
    [
      'a record without id',
      () => Response.json({ data: [{ amount: 1 }], has_more: false, next_cursor: null }),
    ],
    ['an HTML error page with status 200', () => new Response('<html>oops</html>', { status: 200 })],
    ['an unexpected 404', () => new Response('not here', { status: 404 })],
  ])('%s becomes upstream_bad_response', async (_name, respond) => {
    const server = await upstream(scriptedUpstream(respond).app);
    const result = await client(`${server.origin}/v1`).listPayments(first, ctx);
    expect(result).toMatchObject({ ok: false, failure: { code: 'upstream_bad_response', status: 502 } });
  });

  it('an upstream 401 becomes 502 upstream_rejected_credentials, not retried', async () => {
    const fake = scriptedUpstream(() => new Response('{"error":"bad auth"}', { status: 401 }));
    const server = await upstream(fake.app);
    const result = await client(`${server.origin}/v1`).listPayments(first, ctx);
    expect(result).toMatchObject({
      ok: false,
      failure: { code: 'upstream_rejected_credentials', status: 502 },
    });
    expect(fake.calls()).toBe(1);
  });

  it('an upstream 403 becomes 403 forbidden_company', async () => {
    const server = await upstream(scriptedUpstream(() => new Response('no', { status: 403 })).app);
    const result = await client(`${server.origin}/v1`).listPayments(first, { companyId: 'child' });
    expect(result).toMatchObject({ ok: false, failure: { code: 'forbidden_company', status: 403 } });
  });

  it('a 400 naming the cursor, when a cursor was sent, becomes cursor_mismatch', async () => {
    const body = JSON.stringify({ code: 'invalid_cursor' });
    const server = await upstream(scriptedUpstream(() => new Response(body, { status: 400 })).app);
    const c = client(`${server.origin}/v1`);
    expect(await c.listPayments({ limit: 5, cursor: 'abc' }, ctx)).toMatchObject({
      failure: { code: 'cursor_mismatch', status: 400 },
    });
    expect(await c.listPayments({ limit: 5 }, ctx)).toMatchObject({
      failure: { code: 'upstream_bad_response', status: 502 },
    });
  });

  it('a cancelled request stops at once and says so', async () => {
    const server = await upstream(scriptedUpstream(() => new Promise<Response>(() => {})).app);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const started = Date.now();
    const result = await client(`${server.origin}/v1`).listPayments(first, {
      ...ctx,
      signal: controller.signal,
    });
    expect(result).toMatchObject({ ok: false, failure: { aborted: true } });
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('a request whose browser has already gone never goes upstream', async () => {
    const fake = scriptedUpstream(() => Response.json(page));
    const server = await upstream(fake.app);
    const result = await client(`${server.origin}/v1`).listPayments(first, {
      ...ctx,
      signal: AbortSignal.abort(),
    });
    expect(result).toMatchObject({ ok: false, attempts: 0, failure: { aborted: true } });
    expect(fake.calls()).toBe(0);
  });
});

describe('upstream client: it lets go of an answer nobody will read', () => {
  it('hangs up on a body still streaming when the browser goes away', async () => {
    // An endless body of one byte every 20 ms; the server stops pulling once the connection is gone.
    let pulls = 0;
    const endless = () =>
      new Response(
        new ReadableStream({
          async pull(controller) {
            await new Promise((resolve) => setTimeout(resolve, 20));
            pulls += 1;
            controller.enqueue(new TextEncoder().encode(' '));
          },
        }),
        { headers: { 'content-type': 'application/json' } },
      );
    const server = await upstream(scriptedUpstream(endless).app);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 150);
    const result = await client(`${server.origin}/v1`).listPayments(first, {
      ...ctx,
      signal: controller.signal,
    });
    expect(result).toMatchObject({ ok: false, failure: { aborted: true } });
    const atCancel = pulls;
    expect(atCancel).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(pulls).toBeLessThanOrEqual(atCancel + 2);
  });
});

describe('upstream client: what goes upstream', () => {
  it('sends Basic credentials, the query built with URLSearchParams, and X-Company-Id only for other companies', async () => {
    const seen: Array<{ url: string; headers: Record<string, string> }> = [];
    const app = new Hono();
    app.get('/v1/payments/', (c) => {
      seen.push({ url: c.req.url, headers: c.req.header() });
      return Response.json(page);
    });
    const server = await upstream(app);
    const c = client(`${server.origin}/v1`);
    await c.listPayments(
      { limit: 7, status: 'COMPLETED', date_from: '2026-01-01T00:00:00', cursor: 'a+b/c=&d' },
      ctx,
    );
    await c.listPayments({ limit: 7 }, { companyId: 'child-1' });
    const [own, child] = seen;
    const url = new URL(own?.url ?? '');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      limit: '7',
      status: 'COMPLETED',
      date_from: '2026-01-01T00:00:00',
      cursor: 'a+b/c=&d',
    });
    expect(own?.headers.authorization).toBe(
      `Basic ${Buffer.from(`${credentials.secretId}:${credentials.secretPassword}`).toString('base64')}`,
    );
    expect(own?.headers['x-company-id']).toBeUndefined();
    expect(child?.headers['x-company-id']).toBe('child-1');
    expect(Object.keys(child?.headers ?? {}).sort()).toEqual([
      'accept',
      'authorization',
      'connection',
      'host',
      'x-company-id',
    ]);
  });

  it('keeps connections alive: ten sequential requests open at most two sockets', async () => {
    const server = await upstream(scriptedUpstream(() => Response.json(page)).app);
    const c = client(`${server.origin}/v1`);
    for (let i = 0; i < 10; i += 1) await c.listPayments(first, ctx);
    // undici may open a second socket while the first is still settling; a non-pooled client would open ten.
    expect(server.connections()).toBeLessThanOrEqual(2);
  });

  it('logs a bounded excerpt of a failing body with the credentials scrubbed', async () => {
    const echo = `Authorization: Basic ${Buffer.from(`${credentials.secretId}:${credentials.secretPassword}`).toString('base64')} ${credentials.secretPassword} ${'x'.repeat(5_000)}`;
    const server = await upstream(scriptedUpstream(() => new Response(echo, { status: 500 })).app);
    const events: UpstreamLogEvent[] = [];
    await client(`${server.origin}/v1`, { log: (e) => events.push(e) }).listPayments(first, ctx);
    const logged = JSON.stringify(events);
    expect(events).toHaveLength(1);
    expect(logged).not.toContain(credentials.secretPassword);
    expect(logged).not.toContain(credentials.secretId);
    expect(events[0]?.excerpt?.length).toBeLessThanOrEqual(300);
  });

  it('withholds an excerpt that echoes the credentials in an encoded form', async () => {
    const echo = `{"password":"${credentials.secretPassword.replaceAll('-', '\\u002d')}"}`;
    const server = await upstream(scriptedUpstream(() => new Response(echo, { status: 500 })).app);
    const events: UpstreamLogEvent[] = [];
    await client(`${server.origin}/v1`, { log: (e) => events.push(e) }).listPayments(first, ctx);
    expect(events[0]?.excerpt).toMatch(/^\[excerpt withheld/);
  });
});
