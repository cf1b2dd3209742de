import { afterAll, describe, expect, it } from 'vitest';
import { createSandbox } from './create-sandbox.ts';
import type { RequestStats } from './request-stats.ts';
import { list, SANDBOX_AUTH } from './testing/test-requests.ts';

describe('GET /_sandbox/stats', () => {
  const sandbox = createSandbox({ seedCount: 300, faults: { rateLimitRps: 4 }, now: () => new Date(0) });
  const { app } = sandbox;
  afterAll(() => sandbox.close());
  const stats = async (): Promise<RequestStats> => {
    const response = await app.request('/_sandbox/stats', { headers: { Authorization: SANDBOX_AUTH } });
    expect(response.status).toBe(200);
    return (await response.json()) as RequestStats;
  };

  it('starts at nothing', async () => {
    expect(await stats()).toEqual({ requests: 0, by_status: {} });
  });

  it('counts each /v1 request by the status it got, refusals of the rate limit included, and nothing else', async () => {
    expect((await list(app)).status).toBe(200);
    expect((await list(app, { query: { limit: '0' } })).status).toBe(400);
    expect((await list(app, { company: 'globex' })).status).toBe(403);
    expect((await list(app, { authorization: '' })).status).toBe(401);
    expect((await list(app)).status).toBe(429);
    expect((await list(app)).status).toBe(429);
    await app.request('/_sandbox/companies', { headers: { Authorization: SANDBOX_AUTH } });
    await stats();
    expect(await stats()).toEqual({
      requests: 6,
      by_status: { '200': 1, '400': 1, '401': 1, '403': 1, '429': 2 },
    });
  });

  it('takes the sandbox credentials and only GET', async () => {
    expect((await app.request('/_sandbox/stats')).status).toBe(401);
    const post = await app.request('/_sandbox/stats', {
      method: 'POST',
      headers: { Authorization: SANDBOX_AUTH },
    });
    expect(post.status).toBe(405);
  });
});
