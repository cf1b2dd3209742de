import type { Company } from '@payments/shared';
import { problemSchema } from '@payments/shared';
import { Hono } from 'hono';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { type SandboxFaults, startSandbox } from '../sandbox/index.ts';
import type { UpstreamClientOptions } from '../upstream/index.ts';
import { scriptedUpstream } from '../upstream/testing/scripted-upstream.ts';
import { closedPort, serveOnLoopback } from '../upstream/testing/serve-on-loopback.ts';
import type { createBff } from './create-bff.ts';
import { createTestBff, PASSWORD, signInOn } from './testing/bff-harness.ts';

const companies: Company[] = [
  { id: 'acme', name: 'Acme', parent_id: null },
  { id: 'acme-eu', name: 'Acme EU', parent_id: 'acme' },
];
const credentials = { secretId: 'sandbox_id', secretPassword: 'sandbox_secret' };
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

async function bffFor(baseUrl: string, upstream: Partial<UpstreamClientOptions> = {}) {
  const bff = await createTestBff({
    upstream: {
      baseUrl,
      credentials,
      attemptTimeoutMs: 300,
      budgets: { list: { retries: 3, deadlineMs: 2_000 }, export: { retries: 3, deadlineMs: 2_000 } },
      ...upstream,
    },
    companies,
  });
  cleanups.push(bff.close);
  return { bff, logs: bff.logs };
}

async function signedIn(app: ReturnType<typeof createBff>['app']) {
  const cookie = await signInOn(app);
  return (path: string, headers: Record<string, string> = {}) =>
    app.request(path, { headers: { 'X-CSRF': '1', cookie, ...headers } });
}

/** A small sandbox on loopback with the given faults, as the BFF's upstream: its base address. */
async function faultySandbox(faults: SandboxFaults = {}) {
  const sandbox = await startSandbox({ seedCount: 50, port: 0, faults });
  cleanups.push(sandbox.close);
  return sandbox.baseUrl;
}

/** The scripted upstream served on loopback, as the BFF's upstream. */
async function scripted(...responses: Array<() => Response | Promise<Response>>) {
  const { app, calls } = scriptedUpstream(...responses);
  const server = await serveOnLoopback(app);
  cleanups.push(server.close);
  return { baseUrl: `${server.origin}/v1`, calls };
}

const page = (n: number, cursor: string | null) => ({
  data: Array.from({ length: n }, (_, i) => ({
    id: `p-${cursor ?? 'end'}-${i}`,
    amount: i,
    description: '=1+1',
  })),
  next_cursor: cursor,
  has_more: cursor !== null,
});

async function expectProblem(response: Response, status: number, code: string) {
  expect(response.headers.get('content-type')).toBe('application/problem+json');
  const body = problemSchema.parse(await response.json());
  expect([response.status, body.code]).toEqual([status, code]);
  return body;
}

// Both routes that call the upstream: the list, and the export, whose first page is fetched before it answers.
describe.each(['/api/payments', '/api/payments/export.csv'])(
  '%s: a misbehaving upstream ends in the right problem, never a 500 or a hang',
  (route) => {
    it('refused connection → 502 upstream_unavailable', async () => {
      const { bff } = await bffFor(`http://127.0.0.1:${await closedPort()}/v1`);
      await expectProblem(await (await signedIn(bff.app))(route), 502, 'upstream_unavailable');
    });

    it('timeout → 504 upstream_timeout', async () => {
      const upstream = await scripted(() => new Promise<Response>(() => {}));
      const { bff } = await bffFor(upstream.baseUrl, {
        attemptTimeoutMs: 100,
        budgets: { list: { retries: 3, deadlineMs: 400 }, export: { retries: 3, deadlineMs: 400 } },
      });
      const started = Date.now();
      await expectProblem(await (await signedIn(bff.app))(route), 504, 'upstream_timeout');
      expect(Date.now() - started).toBeLessThan(2_000);
    });

    it('500 (the sandbox failing every request) → 502 upstream_unavailable', async () => {
      const { bff } = await bffFor(await faultySandbox({ error500: 1 }));
      await expectProblem(await (await signedIn(bff.app))(route), 502, 'upstream_unavailable');
    });

    it('503 then success → retried, 200', async () => {
      const upstream = await scripted(
        () => new Response('down', { status: 503 }),
        () => Response.json(page(2, null)),
      );
      const { bff, logs } = await bffFor(upstream.baseUrl);
      const response = await (await signedIn(bff.app))(route);
      expect(response.status).toBe(200);
      expect(upstream.calls()).toBe(2);
      const line = logs.map((l) => JSON.parse(l)).find((l) => l.msg === 'request' && l.path === route);
      expect(line).toMatchObject({ status: 200, upstream_attempts: 2, user: 'demo' });
    });

    it('429 with Retry-After → waited, then 200', async () => {
      const upstream = await scripted(
        () => new Response('{"oops":1}', { status: 429, headers: { 'retry-after': '1' } }),
        () => Response.json(page(1, null)),
      );
      const { bff } = await bffFor(upstream.baseUrl);
      const started = Date.now();
      const response = await (await signedIn(bff.app))(route);
      expect(response.status).toBe(200);
      expect(Date.now() - started).toBeGreaterThanOrEqual(990);
    });

    it('429 for longer than the deadline (the sandbox limiting every request) → 503 rate_limited with Retry-After', async () => {
      const { bff } = await bffFor(await faultySandbox({ rate429: 1, retryAfterSeconds: 30 }));
      const response = await (await signedIn(bff.app))(route);
      expect(response.headers.get('retry-after')).toBe('30');
      await expectProblem(response, 503, 'rate_limited');
    });

    it('malformed JSON (from the sandbox fault injection) → 502 upstream_bad_response', async () => {
      const { bff } = await bffFor(await faultySandbox({ malformed: 1 }));
      await expectProblem(await (await signedIn(bff.app))(route), 502, 'upstream_bad_response');
    });

    it('has_more=true with a null cursor → 502 upstream_bad_response', async () => {
      const upstream = await scripted(() => Response.json({ data: [], has_more: true, next_cursor: null }));
      const { bff } = await bffFor(upstream.baseUrl);
      await expectProblem(await (await signedIn(bff.app))(route), 502, 'upstream_bad_response');
    });

    it('upstream 401 (wrong credentials at the sandbox) → 502 upstream_rejected_credentials', async () => {
      const { bff } = await bffFor(await faultySandbox(), {
        credentials: { secretId: 'sandbox_id', secretPassword: 'wrong' },
      });
      await expectProblem(await (await signedIn(bff.app))(route), 502, 'upstream_rejected_credentials');
    });

    it('upstream 403 → 403 forbidden_company', async () => {
      const upstream = await scripted(() => new Response('<h1>Forbidden</h1>', { status: 403 }));
      const { bff } = await bffFor(upstream.baseUrl);
      const get = await signedIn(bff.app);
      await expectProblem(await get(route, { 'X-Company-Id': 'acme-eu' }), 403, 'forbidden_company');
      expect(upstream.calls()).toBe(1);
    });

    it('never echoes the upstream error body to the browser', async () => {
      const upstream = await scripted(() => new Response('SECRET-INTERNAL-STACKTRACE', { status: 500 }));
      const { bff } = await bffFor(upstream.baseUrl);
      const response = await (await signedIn(bff.app))(route);
      expect(await response.text()).not.toContain('SECRET-INTERNAL');
    });
  },
);

describe('export over real HTTP', () => {
  async function serveBff(baseUrl: string) {
    const { bff } = await bffFor(baseUrl);
    const server = await serveOnLoopback(bff.app);
    cleanups.push(server.close);
    const login = await request(`${server.origin}/api/session`, {
      method: 'POST',
      headers: { 'x-csrf': '1', 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'demo', password: PASSWORD }),
    });
    const setCookie = login.headers['set-cookie'];
    await login.body.dump();
    const cookie = (Array.isArray(setCookie) ? setCookie[0] : setCookie)?.split(';')[0] ?? '';
    return { origin: server.origin, cookie };
  }

  it('an upstream failure mid-stream ends the download as failed, never a clean short file', async () => {
    const upstream = await scripted(
      () => Response.json(page(100, 'c1')),
      () => Response.json(page(100, 'c2')),
      () => new Response('broken', { status: 500 }),
    );
    const { origin, cookie } = await serveBff(upstream.baseUrl);
    const response = await request(`${origin}/api/payments/export.csv`, {
      headers: { 'x-csrf': '1', cookie },
    });
    expect(response.statusCode).toBe(200);
    await expect(response.body.text()).rejects.toThrow();
  });

  it('a complete export ends cleanly with every row, formulas neutralised', async () => {
    const upstream = await scripted(
      () => Response.json(page(100, 'c1')),
      () => Response.json(page(30, null)),
    );
    const { origin, cookie } = await serveBff(upstream.baseUrl);
    const response = await request(`${origin}/api/payments/export.csv`, {
      headers: { 'x-csrf': '1', cookie },
    });
    const text = await response.body.text();
    const lines = text.split('\r\n');
    expect(lines.at(-1)).toBe('');
    expect(lines).toHaveLength(1 + 130 + 1);
    expect(lines[1]).toContain(',"\'=1+1",');
  });

  it('a browser that goes away stops the upstream walk', async () => {
    let calls = 0;
    const app = new Hono();
    app.get('/v1/payments/', () => {
      calls += 1;
      return Response.json(page(100, `c${calls}`));
    });
    const server = await serveOnLoopback(app);
    cleanups.push(server.close);
    const { origin, cookie } = await serveBff(`${server.origin}/v1`);
    const controller = new AbortController();
    const response = await request(`${origin}/api/payments/export.csv`, {
      headers: { 'x-csrf': '1', cookie },
      signal: controller.signal,
    });
    let received = 0;
    await expect(
      (async () => {
        for await (const chunk of response.body) {
          received += chunk.length;
          if (received > 100_000) controller.abort();
        }
      })(),
    ).rejects.toThrow();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const settled = calls;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(calls).toBe(settled);
    expect(calls).toBeLessThan(50);
  });
});
