import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { BffEnv } from '../bff-env.ts';
import { requestOrigin } from './request-origin.ts';

const app = new Hono<BffEnv>()
  .use(requestOrigin({ TRUST_PROXY: ['10.0.0.2/32'] }))
  .get('/', (c) => c.json({ address: c.get('address'), secure: c.get('secure') }));
const forwarded = { 'x-forwarded-for': '203.0.113.9', 'x-forwarded-proto': 'https' };
const from = async (peer: string, headers: Record<string, string> = {}, url = 'http://bff.test/') =>
  (await app.request(url, { headers }, { incoming: { socket: { remoteAddress: peer } } })).json();

describe('requestOrigin', () => {
  it('takes the peer address, and plain HTTP, from a client that is no proxy, whatever it forwards', async () => {
    expect(await from('198.51.100.4')).toEqual({ address: '198.51.100.4', secure: false });
    expect(await from('198.51.100.4', forwarded)).toEqual({ address: '198.51.100.4', secure: false });
  });

  it('takes the forwarded address and scheme from a proxy TRUST_PROXY names', async () => {
    expect(await from('10.0.0.2', forwarded)).toEqual({ address: '203.0.113.9', secure: true });
  });

  it('counts an IPv4-mapped peer as its IPv4 address, and an https URL as secure', async () => {
    expect(await from('::ffff:198.51.100.4', {}, 'https://bff.test/')).toEqual({
      address: '198.51.100.4',
      secure: true,
    });
  });
});
