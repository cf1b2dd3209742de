import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { BffEnv } from '../bff-env.ts';
import { CONTENT_SECURITY_POLICY, responseHeaders } from './response-headers.ts';

const app = new Hono<BffEnv>()
  .use(async (c, next) => {
    c.set('secure', c.req.header('x-test-secure') === '1');
    await next();
  })
  .use(...responseHeaders())
  .get('/api/config', (c) => c.json({}))
  .get('/assets/app-1a2b.js', (c) => c.body('', 200))
  .get('/', (c) => c.html(''));

describe('responseHeaders', () => {
  it('sets the security headers on every answer', async () => {
    const res = await app.request('/');
    expect(res.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('sends HSTS only to a browser that came over HTTPS', async () => {
    expect((await app.request('/')).headers.get('strict-transport-security')).toBeNull();
    const secure = await app.request('/', { headers: { 'x-test-secure': '1' } });
    expect(secure.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
  });

  it('never stores data, keeps hashed assets for good, revalidates the rest (and a missing asset)', async () => {
    const cacheOf = async (path: string) => (await app.request(path)).headers.get('cache-control');
    expect(await cacheOf('/api/config')).toBe('no-store');
    expect(await cacheOf('/assets/app-1a2b.js')).toBe('public, max-age=31536000, immutable');
    expect(await cacheOf('/assets/missing.js')).toBe('no-cache');
    expect(await cacheOf('/')).toBe('no-cache');
  });
});
