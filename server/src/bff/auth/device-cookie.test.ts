import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { createDeviceCookies } from './device-cookie.ts';

const SECRET = 'a shared application secret of some length';

/** A tiny app: POST issues a device cookie for ?user, GET reads the device of ?user from the request. */
function app(secret = SECRET) {
  const devices = createDeviceCookies(secret);
  const secure = (url: string) => url.startsWith('https:');
  return new Hono()
    .post('/', async (c) => {
      await devices.issue(c, c.req.query('user') ?? '', secure(c.req.url));
      return c.body(null, 204);
    })
    .get('/', async (c) =>
      c.json({ device: await devices.deviceOf(c, c.req.query('user') ?? '', secure(c.req.url)) }),
    );
}

async function issued(origin: string, user: string, secret = SECRET) {
  const response = await app(secret).request(`${origin}/?user=${user}`, { method: 'POST' });
  return response.headers.get('set-cookie') ?? '';
}

async function deviceOf(origin: string, user: string, cookie: string, secret = SECRET) {
  const response = await app(secret).request(`${origin}/?user=${user}`, { headers: { cookie } });
  return ((await response.json()) as { device: string | null }).device;
}

describe('device cookies', () => {
  it('name the device of the user they were issued to, and no other user', async () => {
    const header = await issued('http://dash.test', 'ana.smith@acme');
    const cookie = header.split(';')[0] ?? '';
    const device = await deviceOf('http://dash.test', 'ana.smith@acme', cookie);
    expect(device).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(await deviceOf('http://dash.test', 'ana', cookie)).toBeNull();
    expect(
      await deviceOf(
        'http://dash.test',
        'ana.smith@acme',
        (await issued('http://dash.test', 'ana.smith@acme')).split(';')[0] ?? '',
      ),
    ).not.toBe(device);
  });

  it('are refused when altered, signed under another secret, or missing', async () => {
    const cookie = (await issued('http://dash.test', 'ana')).split(';')[0] ?? '';
    const [name, value = ''] = cookie.split('=');
    const decoded = decodeURIComponent(value);
    const forged = `${name}=${encodeURIComponent(decoded.replace(/\.ana\./, '.bob.'))}`;
    const otherNonce = `${name}=${encodeURIComponent(`${'A'.repeat(22)}${decoded.slice(22)}`)}`;
    for (const bad of [forged, otherNonce, `${name}=${value.slice(0, -6)}`, `${name}=garbage`, ''])
      expect(await deviceOf('http://dash.test', 'ana', bad), bad).toBeNull();
    expect(await deviceOf('http://dash.test', 'bob', forged)).toBeNull();
    expect(
      await deviceOf('http://dash.test', 'ana', cookie, 'another secret of some length, too'),
    ).toBeNull();
  });

  it('are HttpOnly, SameSite=Strict, 180 days; __Host- and Secure over HTTPS, else sent to sign-in only', async () => {
    const plain = await issued('http://dash.test', 'ana');
    expect(plain).toMatch(/^device=/);
    expect(plain).toContain('HttpOnly');
    expect(plain).toContain('SameSite=Strict');
    expect(plain).toContain(`Max-Age=${180 * 24 * 3600}`);
    expect(plain).toContain('Path=/api/session');
    expect(plain).not.toContain('Secure');
    const secure = await issued('https://dash.test', 'ana');
    expect(secure).toMatch(/^__Host-device=.*; Path=\/;.*Secure/);
    expect(await deviceOf('https://dash.test', 'ana', secure.split(';')[0] ?? '')).not.toBeNull();
  });
});
