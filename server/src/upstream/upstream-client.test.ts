import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import fc from 'fast-check';
import { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';
import { type ScriptedResponse, scriptedUpstream } from './testing/scripted-upstream.ts';
import { closedPort, type LoopbackServer, serveOnLoopback } from './testing/serve-on-loopback.ts';
import {
  basicCredentials,
  createUpstreamClient,
  type UpstreamClientOptions,
  type UpstreamLogEvent,
} from './upstream-client.ts';

const credentials = { secretId: 'client-id-7', secretPassword: 'very-secret-password' };
const page = { data: [{ id: 'p1', amount: 5 }], next_cursor: null, has_more: false };
const budgets = { list: { retries: 3, deadlineMs: 5_000 }, export: { retries: 10, deadlineMs: 5_000 } };
const first = { limit: 10 };
const ctx = { companyId: 'root' };
const cleanups: Array<() => Promise<void>> = [];

afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

async function upstream(app: Parameters<typeof serveOnLoopback>[0]): Promise<LoopbackServer> {
  const server = await serveOnLoopback(app);
  cleanups.push(server.close);
  return server;
}

/** A scripted upstream on loopback: its base address, and what it saw. */
async function scripted(...responses: ScriptedResponse[]) {
  const fake = scriptedUpstream(...responses);
  const server = await upstream(fake.app);
  return { ...fake, server, baseUrl: `${server.origin}/v1` };
}

function client(baseUrl: string, extra: Partial<UpstreamClientOptions> = {}) {
  const c = createUpstreamClient({
    baseUrl,
    credentials,
    ownCompanyId: 'root',
    attemptTimeoutMs: 2_000,
    budgets,
    backoffBaseMs: 5,
    backoffCapMs: 20,
    ...extra,
  });
  cleanups.push(c.close);
  return c;
}

const answer =
  (status: number, body = 'upstream says no', headers: Record<string, string> = {}): ScriptedResponse =>
  () =>
    new Response(body, { status, headers });
const json =
  (body: unknown): ScriptedResponse =>
  () =>
    Response.json(body);
const jsonText =
  (text: string): ScriptedResponse =>
  () =>
    new Response(text, { headers: { 'content-type': 'application/json' } });
const never: ScriptedResponse = () => new Promise<Response>(() => {});
/** A response that never ends: one space every 20 ms, `pulls` counted. */
const endless = (counter: { pulls: number }): ScriptedResponse => {
  return () =>
    new Response(
      new ReadableStream({
        async pull(controller) {
          await new Promise((resolve) => setTimeout(resolve, 20));
          counter.pulls += 1;
          controller.enqueue(new TextEncoder().encode(' '));
        },
      }),
      { headers: { 'content-type': 'application/json' } },
    );
};

describe('upstream client: passing faults are retried', () => {
  it.each([500, 502, 503, 504])('a %i is retried, and the good page after it is returned', async (status) => {
    const fake = await scripted(answer(status), json(page));
    const result = await client(fake.baseUrl).listPayments(first, ctx);
    expect(result).toEqual({ ok: true, value: page, attempts: 2 });
    expect(fake.calls()).toBe(2);
  });

  it('a connection dropped before any answer is retried, and the good page after it is returned', async () => {
    const fake = await scripted((_request, node) => {
      node.incoming.socket.destroy();
      return RESPONSE_ALREADY_SENT;
    }, json(page));
    const events: UpstreamLogEvent[] = [];
    const result = await client(fake.baseUrl, { log: (e) => events.push(e) }).listPayments(first, ctx);
    expect(result).toEqual({ ok: true, value: page, attempts: 2 });
    expect(events).toEqual([
      expect.objectContaining({ attempt: 1, outcome: expect.stringMatching(/^network/) }),
    ]);
  });

  it('a connection dropped in the middle of a 200 body is retried, and the good page after it is returned', async () => {
    const text = JSON.stringify(page);
    const fake = await scripted((_request, node) => {
      node.outgoing.writeHead(200, {
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(text)),
      });
      node.outgoing.write(text.slice(0, 12), () => node.outgoing.destroy());
      return RESPONSE_ALREADY_SENT;
    }, json(page));
    const result = await client(fake.baseUrl).listPayments(first, ctx);
    expect(result).toEqual({ ok: true, value: page, attempts: 2 });
  });

  it.each([
    ['whose JSON is cut short (a complete message with half a page)', JSON.stringify(page).slice(0, 20)],
    ['that is not JSON (an HTML error page)', '<html><body>Bad gateway</body></html>'],
  ])('a 200 %s is retried, and the good page after it is returned', async (_what, text) => {
    const fake = await scripted(jsonText(text), json(page));
    const result = await client(fake.baseUrl).listPayments(first, ctx);
    expect(result).toEqual({ ok: true, value: page, attempts: 2 });
  });

  it('a 200 that stays unreadable ends as upstream_bad_response once the retries are spent', async () => {
    const fake = await scripted(jsonText('{"data": ['));
    const result = await client(fake.baseUrl).listPayments(first, ctx);
    expect(result).toMatchObject({
      ok: false,
      attempts: 4,
      failure: { code: 'upstream_bad_response', status: 502 },
    });
    expect(fake.calls()).toBe(4);
  });

  it('a refused connection is retried, then reported as upstream_unavailable', async () => {
    const result = await client(`http://127.0.0.1:${await closedPort()}/v1`).listPayments(first, ctx);
    expect(result).toMatchObject({
      ok: false,
      attempts: 4,
      failure: { code: 'upstream_unavailable', status: 502 },
    });
  });
});

describe('upstream client: a page that breaks the interface is not retried', () => {
  it.each([
    ['has_more=true with a null cursor', { data: [], has_more: true, next_cursor: null }],
    ['has_more=false with a cursor', { data: [], has_more: false, next_cursor: 'x' }],
    ['a record without id', { data: [{ id: 'a' }, { amount: 1 }], has_more: false, next_cursor: null }],
    ['a record with an empty id', { data: [{ id: '' }], has_more: false, next_cursor: null }],
    ['data that is not an array', { data: {}, has_more: false, next_cursor: null }],
  ])('a 200 with %s ends at once as upstream_bad_response', async (_what, body) => {
    const fake = await scripted(json(body));
    const result = await client(fake.baseUrl).listPayments(first, ctx);
    expect(result).toMatchObject({
      ok: false,
      attempts: 1,
      failure: { code: 'upstream_bad_response', status: 502 },
    });
    expect(fake.calls()).toBe(1);
  });

  it('logs a broken record by where it breaks, never by its values', async () => {
    const good = { id: 'pay-0001', iban: 'DE89370400440532013000', amount: 987_654_321 };
    const broken = { iban: 'GB33BUKB20201555555555', amount: 123_456_789, holder: 'Jane Q. Customer' };
    const fake = await scripted(json({ data: [good, broken], next_cursor: null, has_more: false }));
    const events: UpstreamLogEvent[] = [];
    await client(fake.baseUrl, { log: (e) => events.push(e) }).listPayments(first, ctx);
    expect(events).toEqual([
      { event: 'upstream_attempt_failed', attempt: 1, outcome: 'bad: data[1].id is missing' },
    ]);
    const logged = JSON.stringify(events);
    for (const value of [...Object.values(good), ...Object.values(broken)])
      expect(logged).not.toContain(String(value));
  });
});

describe('upstream client: Retry-After is honoured', () => {
  it('a 429 with Retry-After in seconds is waited out: the retry comes no earlier than asked', async () => {
    const fake = await scripted(answer(429, 'slow down', { 'retry-after': '1' }), json(page));
    const result = await client(fake.baseUrl).listPayments(first, ctx);
    expect(result).toEqual({ ok: true, value: page, attempts: 2 });
    const [asked = 0, retried = 0] = fake.arrivals();
    expect(retried - asked).toBeGreaterThanOrEqual(1_000);
  });

  it('a 503 with Retry-After as an HTTP date is waited out until that date', async () => {
    let until = 0;
    const fake = await scripted(() => {
      // A whole second at least half a second away: an HTTP date has no milliseconds, and a client that
      // ignored it (backoff ≤ 20 ms) must be seen retrying too early.
      until = Math.ceil((Date.now() + 500) / 1000) * 1000;
      return new Response('busy', { status: 503, headers: { 'retry-after': new Date(until).toUTCString() } });
    }, json(page));
    const result = await client(fake.baseUrl).listPayments(first, ctx);
    expect(result).toEqual({ ok: true, value: page, attempts: 2 });
    const [, retried = 0] = fake.arrivals();
    // Timers run on a millisecond clock of their own: a few ms of slack, far below the half second asked.
    expect(retried).toBeGreaterThanOrEqual(until - 5);
  });

  it('a 429 whose Retry-After passes the deadline becomes rate_limited carrying the wait, at once', async () => {
    const fake = await scripted(answer(429, '{}', { 'retry-after': '30' }));
    const started = Date.now();
    const result = await client(fake.baseUrl).listPayments(first, ctx);
    expect(result).toMatchObject({
      ok: false,
      attempts: 1,
      failure: { code: 'rate_limited', status: 503, retryAfterSeconds: 30 },
    });
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});

describe('upstream client: budgets bound each call', () => {
  it('an export page gets the export budget: five failures fail a list call (3 retries) and not an export call (10)', async () => {
    let failuresLeft = 5;
    const fake = await scripted(() =>
      failuresLeft-- > 0 ? new Response('busy', { status: 503 }) : Response.json(page),
    );
    const api = client(fake.baseUrl);
    const list = await api.listPayments(first, { ...ctx, cls: 'page' });
    expect(list).toMatchObject({ ok: false, attempts: 4, failure: { code: 'upstream_unavailable' } });
    failuresLeft = 5;
    const exported = await api.listPayments(first, { ...ctx, cls: 'walk' });
    expect(exported).toEqual({ ok: true, value: page, attempts: 6 });
    expect(fake.calls()).toBe(10);
  });

  it('an upstream that never answers ends as upstream_timeout within the deadline', async () => {
    const fake = await scripted(never);
    const started = Date.now();
    const result = await client(fake.baseUrl, {
      attemptTimeoutMs: 150,
      budgets: { list: { retries: 10, deadlineMs: 600 } },
    }).listPayments(first, ctx);
    expect(result).toMatchObject({ ok: false, failure: { code: 'upstream_timeout', status: 504 } });
    expect(result.attempts).toBeGreaterThan(1);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('an attempt is bounded as a whole: a body trickled out byte by byte times out and is retried', async () => {
    const fake = await scripted(endless({ pulls: 0 }));
    const started = Date.now();
    const result = await client(fake.baseUrl, {
      attemptTimeoutMs: 300,
      budgets: { list: { retries: 10, deadlineMs: 1_000 } },
    }).listPayments(first, ctx);
    expect(result).toMatchObject({ ok: false, failure: { code: 'upstream_timeout', status: 504 } });
    expect(result.attempts).toBeGreaterThan(1);
    expect(fake.calls()).toBe(result.attempts);
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it.each([
    ['declares', true],
    ['streams, undeclared,', false],
  ])(
    'a body that %s more than 8 MiB is refused as upstream_bad_response, not retried, without reading it all',
    async (_how, declared) => {
      const chunk = new Uint8Array(1024 * 1024).fill(0x20);
      const sent: number[] = [];
      const fake = await scripted(() => {
        const call = sent.push(0) - 1;
        const body = new ReadableStream<Uint8Array>({
          pull(controller) {
            // Far past the bound, so a client that read on to the end would be seen sending all of it.
            if ((sent[call] ?? 0) >= 64) controller.close();
            else {
              sent[call] = (sent[call] ?? 0) + 1;
              controller.enqueue(chunk);
            }
          },
        });
        const headers: Record<string, string> = { 'content-type': 'application/json' };
        if (declared) headers['content-length'] = String(64 * chunk.length);
        return new Response(body, { headers });
      });
      const result = await client(fake.baseUrl).listPayments(first, ctx);
      expect(result).toMatchObject({
        ok: false,
        attempts: 1,
        failure: { code: 'upstream_bad_response', status: 502 },
      });
      expect(fake.calls()).toBe(1);
      expect(sent[0]).toBeLessThan(64);
    },
  );
});

describe('upstream client: refusals end the call at once with their own code', () => {
  it('an upstream 401 becomes 502 upstream_rejected_credentials, not retried', async () => {
    const fake = await scripted(answer(401, '{"error":"bad auth"}'));
    const result = await client(fake.baseUrl).listPayments(first, ctx);
    expect(result).toMatchObject({
      ok: false,
      attempts: 1,
      failure: { code: 'upstream_rejected_credentials', status: 502 },
    });
    expect(fake.calls()).toBe(1);
  });

  it('an upstream 403 becomes 403 forbidden_company, not retried', async () => {
    const fake = await scripted(answer(403));
    const result = await client(fake.baseUrl).listPayments(first, { companyId: 'child' });
    expect(result).toMatchObject({ ok: false, failure: { code: 'forbidden_company', status: 403 } });
    expect(fake.calls()).toBe(1);
  });

  it.each([400, 404, 409, 410, 422])(
    'a %i is cursor_mismatch when a cursor was sent; without one a 400 or 422 refuses the filters, anything else is upstream_bad_response',
    async (status) => {
      const fake = await scripted(answer(status, '{"code":"invalid_cursor"}'));
      const api = client(fake.baseUrl);
      expect(await api.listPayments({ limit: 5, cursor: 'abc' }, ctx)).toMatchObject({
        ok: false,
        attempts: 1,
        failure: { code: 'cursor_mismatch', status: 400 },
      });
      expect(await api.listPayments({ limit: 5 }, ctx)).toMatchObject({
        ok: false,
        attempts: 1,
        failure:
          status === 400 || status === 422
            ? { code: 'invalid_parameter', status: 400 }
            : { code: 'upstream_bad_response', status: 502 },
      });
      expect(fake.calls()).toBe(2);
    },
  );
});

describe('upstream client: error bodies are never logged', () => {
  const pair = `${credentials.secretId}:${credentials.secretPassword}`;
  const echoes = [
    credentials.secretId,
    credentials.secretPassword,
    pair,
    basicCredentials(credentials),
    Buffer.from(credentials.secretPassword).toString('base64'),
    Buffer.from(credentials.secretPassword).toString('hex'),
    Buffer.from(pair).toString('hex'),
    'upstream-private-detail',
  ];
  const body = JSON.stringify({ error: 'upstream-private-detail', echoes });

  it.each([400, 401, 403, 404, 429, 500, 502, 503])(
    'a %i echoing the credentials (raw, base64, hex, password alone) leaves none of them in the log',
    async (status) => {
      const fake = await scripted(answer(status, body, { 'content-type': 'application/json' }));
      const events: UpstreamLogEvent[] = [];
      await client(fake.baseUrl, { log: (e) => events.push(e) }).listPayments(first, ctx);
      expect(events.length).toBeGreaterThan(0);
      for (const event of events)
        expect(event).toMatchObject({ status, content_type: 'application/json', outcome: 'status' });
      const logged = JSON.stringify(events);
      for (const echo of echoes) expect(logged).not.toContain(echo);
    },
  );
});

describe('upstream client: what comes back is what the upstream sent', () => {
  const encoders = { gzip: gzipSync, deflate: deflateSync, br: brotliCompressSync };

  it.each(Object.keys(encoders) as Array<keyof typeof encoders>)(
    'a page compressed with %s is accepted',
    async (encoding) => {
      const served = {
        data: Array.from({ length: 50 }, (_, i) => ({ id: `p-${i}`, description: 'x'.repeat(i) })),
        next_cursor: 'more',
        has_more: true,
      };
      const fake = await scripted((request) => {
        const accepted = (request.headers.get('accept-encoding') ?? '').split(',').map((e) => e.trim());
        if (!accepted.includes(encoding)) return new Response('not acceptable', { status: 406 });
        return new Response(encoders[encoding](Buffer.from(JSON.stringify(served))), {
          headers: { 'content-type': 'application/json', 'content-encoding': encoding },
        });
      });
      expect(await client(fake.baseUrl).listPayments(first, ctx)).toEqual({
        ok: true,
        value: served,
        attempts: 1,
      });
    },
  );

  it('passes every record unchanged: any members of any JSON type beside a usable id', async () => {
    let served = '';
    const fake = await scripted(
      () => new Response(served, { headers: { 'content-type': 'application/json' } }),
    );
    const api = client(fake.baseUrl);
    const id = fc.oneof(
      fc.string({ minLength: 1 }),
      fc.integer(),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
    );
    const record = fc
      .tuple(id, fc.dictionary(fc.string(), fc.jsonValue()))
      .map(([id, rest]) => ({ ...rest, id }));
    await fc.assert(
      fc.asyncProperty(fc.array(record, { minLength: 1, maxLength: 4 }), async (data) => {
        served = JSON.stringify({ data, next_cursor: null, has_more: false });
        const result = await api.listPayments(first, ctx);
        // As the browser receives them: the same members in the same order with the same values, digit for digit
        // (an integer beyond 2^53 is kept as the upstream's text), not a copy rebuilt from the schema.
        expect(result.ok && JSON.stringify(result.value.data)).toBe(JSON.stringify(data));
      }),
    );
  });

  it('numbers beyond 2^53 keep the digits the upstream sent when the page is written out again', async () => {
    // Two ids a double cannot tell apart, and an amount a double would round.
    const fake = await scripted(
      jsonText(
        '{"data":[{"id":9007199254740993,"amount":12345678901234567891},{"id":9007199254740992,"amount":1}],"next_cursor":null,"has_more":false}',
      ),
    );
    const result = await client(fake.baseUrl).listPayments(first, ctx);
    expect(result.ok).toBe(true);
    const written = JSON.stringify(result.ok && result.value.data);
    expect(written).toContain('"id":9007199254740993');
    expect(written).toContain('"amount":12345678901234567891');
    expect(written).toContain('"id":9007199254740992');
  });

  it('a 200 that begins with a byte order mark is read as the JSON after it', async () => {
    const fake = await scripted(jsonText(`\ufeff${JSON.stringify(page)}`));
    expect(await client(fake.baseUrl).listPayments(first, ctx)).toEqual({
      ok: true,
      value: page,
      attempts: 1,
    });
  });
});

describe('upstream client: it lets go of an answer nobody will read', () => {
  it('a cancelled request stops at once and says so', async () => {
    const fake = await scripted(never);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const started = Date.now();
    const result = await client(fake.baseUrl).listPayments(first, { ...ctx, signal: controller.signal });
    expect(result).toMatchObject({ ok: false, failure: { aborted: true } });
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('a request cancelled while it waits out a Retry-After stops at once, without retrying', async () => {
    const fake = await scripted(answer(429, 'slow down', { 'retry-after': '3' }));
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const started = Date.now();
    const result = await client(fake.baseUrl).listPayments(first, { ...ctx, signal: controller.signal });
    expect(result).toMatchObject({ ok: false, failure: { aborted: true } });
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(fake.calls()).toBe(1);
  });

  it('a request whose browser has already gone never goes upstream', async () => {
    const fake = await scripted(json(page));
    const result = await client(fake.baseUrl).listPayments(first, { ...ctx, signal: AbortSignal.abort() });
    expect(result).toMatchObject({ ok: false, failure: { aborted: true } });
    expect(fake.calls()).toBe(0);
    expect(fake.server.connections()).toBe(0);
  });

  it('hangs up on a body still streaming when the browser goes away', async () => {
    const counter = { pulls: 0 };
    const fake = await scripted(endless(counter));
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 150);
    const result = await client(fake.baseUrl).listPayments(first, { ...ctx, signal: controller.signal });
    expect(result).toMatchObject({ ok: false, failure: { aborted: true } });
    const atCancel = counter.pulls;
    expect(atCancel).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 300));
    // The server stops pulling once the connection is gone; a client still reading would see ~15 more.
    expect(counter.pulls).toBeLessThanOrEqual(atCancel + 2);
  });
});

describe('upstream client: identical requests share one call', () => {
  const slow: ScriptedResponse = async () => {
    await new Promise((resolve) => setTimeout(resolve, 100));
    return Response.json(page);
  };

  it('24 identical requests at once make one upstream request; the 23 that joined count no attempt', async () => {
    const fake = await scripted(slow);
    const c = client(fake.baseUrl);
    const results = await Promise.all(Array.from({ length: 24 }, () => c.listPayments(first, ctx)));
    expect(fake.calls()).toBe(1);
    for (const result of results) expect(result).toMatchObject({ ok: true, value: page });
    expect(results.map((r) => r.attempts).toSorted()).toEqual([...Array(23).fill(0), 1]);
    // Another company, other filters or another cursor is another request.
    await Promise.all([
      c.listPayments(first, { companyId: 'child' }),
      c.listPayments({ ...first, status: 'COMPLETED' }, ctx),
      c.listPayments({ ...first, cursor: 'c2' }, ctx),
    ]);
    expect(fake.calls()).toBe(4);
  });

  it('a caller that leaves does not stop the call for the others; when all have left, it stops', async () => {
    const fake = await scripted(slow);
    const c = client(fake.baseUrl);
    const leaving = new AbortController();
    const [left, stayed] = await Promise.all([
      c.listPayments(first, { ...ctx, signal: leaving.signal }),
      c.listPayments(first, ctx),
      new Promise((resolve) => setTimeout(resolve, 20)).then(() => leaving.abort()),
    ]);
    expect(left).toMatchObject({ ok: false, failure: { aborted: true } });
    expect(stayed).toMatchObject({ ok: true, value: page });
    const counter = { pulls: 0 };
    const endlessOne = await scripted(endless(counter));
    const all = new AbortController();
    const d = client(endlessOne.baseUrl);
    const both = Promise.all([1, 2].map(() => d.listPayments(first, { ...ctx, signal: all.signal })));
    setTimeout(() => all.abort(), 100);
    expect(await both).toMatchObject([{ failure: { aborted: true } }, { failure: { aborted: true } }]);
    const atCancel = counter.pulls;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(counter.pulls).toBeLessThanOrEqual(atCancel + 2);
  });

  it('a page fetched moments ago answers again within UPSTREAM_PAGE_REUSE_MS, and is fetched anew after it', async () => {
    const fake = await scripted(json(page));
    const c = client(fake.baseUrl, { pageReuseMs: 200 });
    expect(await c.listPayments(first, ctx)).toMatchObject({ ok: true, attempts: 1 });
    expect(await c.listPayments(first, ctx)).toMatchObject({ ok: true, value: page, attempts: 0 });
    expect(fake.calls()).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(await c.listPayments(first, ctx)).toMatchObject({ ok: true, attempts: 1 });
    expect(fake.calls()).toBe(2);
  });

  it('a caller with notBefore takes no page, and joins no call, begun before it (a Refresh reads from then on)', async () => {
    const fake = await scripted(json(page));
    const c = client(fake.baseUrl, { pageReuseMs: 60_000 });
    expect(await c.listPayments(first, ctx)).toMatchObject({ ok: true, attempts: 1 });
    const since = performance.now();
    expect(await c.listPayments(first, { ...ctx, notBefore: since })).toMatchObject({
      ok: true,
      attempts: 1,
    });
    // A page begun after it is taken again.
    expect(await c.listPayments(first, { ...ctx, notBefore: since })).toMatchObject({
      ok: true,
      attempts: 0,
    });
    expect(fake.calls()).toBe(2);
    const slowOne = await scripted(slow);
    const d = client(slowOne.baseUrl);
    const early = d.listPayments(first, ctx);
    await new Promise((resolve) => setTimeout(resolve, 10));
    const late = d.listPayments(first, { ...ctx, notBefore: performance.now() });
    await Promise.all([early, late]);
    expect(slowOne.calls()).toBe(2);
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
    const api = client(`${server.origin}/v1`);
    await api.listPayments(
      { limit: 7, status: 'COMPLETED', date_from: '2026-01-01T00:00:00', cursor: 'a+b/c=&d' },
      ctx,
    );
    await api.listPayments({ limit: 7 }, { companyId: 'child-1' });
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
    expect(child?.headers['accept-encoding']?.split(',').map((e) => e.trim())).toEqual(
      expect.arrayContaining(['gzip', 'deflate', 'br']),
    );
    // Built from scratch: our own headers and the connection's, nothing else.
    expect(Object.keys(child?.headers ?? {}).sort()).toEqual([
      'accept',
      'accept-encoding',
      'authorization',
      'connection',
      'host',
      'x-company-id',
    ]);
  });

  it('keeps connections alive: ten sequential requests open at most two sockets', async () => {
    const fake = await scripted(json(page));
    const api = client(fake.baseUrl);
    for (let i = 0; i < 10; i += 1) await api.listPayments(first, ctx);
    // undici may open a second socket while the first is still settling; a non-pooled client would open ten.
    expect(fake.server.connections()).toBeLessThanOrEqual(2);
  });
});
