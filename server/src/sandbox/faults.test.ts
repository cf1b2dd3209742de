import { PROBLEM_CONTENT_TYPE, problemSchema } from '@payments/shared';
import { afterAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox, type SandboxOptions } from './create-sandbox.ts';
import { parseFaults } from './faults.ts';
import { list, SANDBOX_AUTH } from './testing/test-requests.ts';

const opened: Sandbox[] = [];
function open(faults: SandboxOptions['faults']): Sandbox {
  const sandbox = createSandbox({ seedCount: 300, faults });
  opened.push(sandbox);
  return sandbox;
}
afterAll(() => {
  for (const sandbox of opened) sandbox.close();
});

describe('parseFaults', () => {
  it('reads the SANDBOX_FAULTS syntax', () => {
    expect(
      parseFaults('latency_ms=20,error_500=0.1,error_503=0.1,rate_429=0.05,retry_after=1,malformed=0.05'),
    ).toEqual({
      latencyMs: 20,
      error500: 0.1,
      error503: 0.1,
      rate429: 0.05,
      retryAfterSeconds: 1,
      malformed: 0.05,
    });
    expect(parseFaults('')).toEqual({});
    expect(parseFaults(' rate_429 = 0.5 , ')).toEqual({ rate429: 0.5 });
    expect(parseFaults('latency_ms=100,rate_limit_rps=40')).toEqual({ latencyMs: 100, rateLimitRps: 40 });
    expect(parseFaults('cursor_ttl_s=60,settle_rps=2.5')).toEqual({ cursorTtlSeconds: 60, settleRps: 2.5 });
  });

  it.each([
    ['unknown=1', /unknown fault "unknown"/],
    ['error_500', /error_500/],
    ['error_500=abc', /error_500/],
    ['error_500=-0.1', /error_500/],
    ['error_500=1.5', /error500/],
    ['error_500=0.6,error_503=0.6', /more than 1/],
    ['latency_ms=0.5', /latency_ms/],
    ['latency_ms=999999', /latency_ms/],
    ['retry_after=1,retry_after=2', /twice/],
    ['malformed=0.1=2', /malformed/],
    ['rate_limit_rps=0', /rate_limit_rps/],
    ['rate_limit_rps=2.5', /rate_limit_rps/],
    ['rate_limit_rps=1000000', /rate_limit_rps/],
    ['cursor_ttl_s=0', /cursor_ttl_s/],
    ['cursor_ttl_s=1.5', /cursor_ttl_s/],
    ['settle_rps=20000', /settle_rps/],
  ])('refuses %j with a message naming the fault', (spec, message) => {
    expect(() => parseFaults(spec)).toThrow(message);
  });
});

describe('fault injection', () => {
  it('error_500=1: every /v1 request after auth gets a 500 problem; unauthenticated ones still get 401', async () => {
    const { app } = open({ error500: 1 });
    const response = await list(app);
    expect(response.status).toBe(500);
    expect(response.headers.get('Content-Type')).toBe(PROBLEM_CONTENT_TYPE);
    expect(problemSchema.parse(await response.json()).code).toBe('internal_error');
    expect((await list(app, { authorization: '' })).status).toBe(401);
  });

  it('faults leave /_sandbox/companies alone', async () => {
    const { app } = open({ error503: 1 });
    const response = await app.request('/_sandbox/companies', { headers: { Authorization: SANDBOX_AUTH } });
    expect(response.status).toBe(200);
  });

  it('error_503=1 gives 503 service_unavailable', async () => {
    const response = await list(open({ error503: 1 }).app);
    expect(response.status).toBe(503);
    expect(problemSchema.parse(await response.json()).code).toBe('service_unavailable');
  });

  it('rate_429=1 gives 429 with the configured Retry-After', async () => {
    const response = await list(open({ rate429: 1, retryAfterSeconds: 7 }).app);
    expect(response.status).toBe(429);
    expect(response.headers.get('Retry-After')).toBe('7');
    expect(problemSchema.parse(await response.json()).code).toBe('rate_limited');
  });

  it('malformed=1 gives 200 with a JSON content type and a body that does not parse', async () => {
    const response = await list(open({ malformed: 1 }).app);
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toMatch(/^application\/json/);
    const text = await response.text();
    expect(text.length).toBeGreaterThan(0);
    expect(() => JSON.parse(text)).toThrow();
  });

  it('malformed bodies replace successes only: a 400 stays a valid problem', async () => {
    const response = await list(open({ malformed: 1 }).app, { query: { limit: '0' } });
    expect(response.status).toBe(400);
    expect(problemSchema.safeParse(await response.json()).success).toBe(true);
  });

  it('latency_ms delays every response by at least that much', async () => {
    const { app } = open({ latencyMs: 60 });
    const started = performance.now();
    expect((await list(app)).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(59);
  });

  it('shares are honoured roughly: half 503, half 200 over 400 requests', async () => {
    const { app } = open({ error503: 0.5 });
    const statuses = await Promise.all(
      Array.from({ length: 400 }, async () => (await list(app, { query: { limit: '1' } })).status),
    );
    const unavailable = statuses.filter((s) => s === 503).length;
    expect(unavailable).toBeGreaterThan(140);
    expect(unavailable).toBeLessThan(260);
    expect(statuses.filter((s) => s === 200).length).toBe(400 - unavailable);
  });
});

describe('an upstream that forgets', () => {
  it('cursor_ttl_s: a cursor is taken until that many seconds after it was issued, then refused with 410', async () => {
    let now = Date.UTC(2026, 0, 1);
    const sandbox = createSandbox({
      seedCount: 300,
      faults: { cursorTtlSeconds: 60 },
      now: () => new Date(now),
    });
    opened.push(sandbox);
    const first = await list(sandbox.app, { query: { limit: '10' } });
    const { next_cursor: cursor } = (await first.json()) as { next_cursor: string };
    now += 59_999;
    expect((await list(sandbox.app, { query: { limit: '10', cursor } })).status).toBe(200);
    now += 1;
    const expired = await list(sandbox.app, { query: { limit: '10', cursor } });
    expect(expired.status).toBe(410);
    expect(problemSchema.parse(await expired.json()).code).toBe('cursor_expired');
  });

  it('settle: AWAITING payments become COMPLETED or FAILED, the last added first', async () => {
    const sandbox = open({ settleRps: 0 });
    const companies = sandbox.tenants.flatMap((tenant) => tenant.companies.map((company) => company.id));
    const rows = (status?: string) =>
      companies.flatMap((companyId) => sandbox.store.page({ companyId, status, limit: 10_000 }));
    const before = rows('AWAITING').map((row) => row.id);
    expect(sandbox.store.settle(3)).toBe(3);
    const after = new Set(rows('AWAITING').map((row) => row.id));
    const settled = before.filter((id) => !after.has(id));
    // Ids grow as payments are added: the three highest were added last.
    expect(settled.toSorted()).toEqual(before.toSorted().slice(-3));
    const now = new Map(rows().map((row) => [row.id, row.status]));
    for (const id of settled) expect(['COMPLETED', 'FAILED']).toContain(now.get(id));
  });
});
