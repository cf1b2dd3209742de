import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webAssets } from './web-assets.ts';

let dist: string;
const script = `export const rows = ${JSON.stringify(Array.from({ length: 200 }, (_, i) => `row ${i}`))};\n`;
const index =
  '<!doctype html><html><head><title>Payments</title></head><body><div id="root"></div></body></html>';

/** A build as `pnpm build` writes it: text files of 1 KB or more with .br and .gz copies, source maps beside. */
function writeBuild(dir: string) {
  mkdirSync(join(dir, 'assets'), { recursive: true });
  writeFileSync(join(dir, 'index.html'), index);
  writeFileSync(join(dir, 'assets', 'app.js'), script);
  writeFileSync(join(dir, 'assets', 'app.js.br'), brotliCompressSync(script));
  writeFileSync(join(dir, 'assets', 'app.js.gz'), gzipSync(script));
  writeFileSync(join(dir, 'assets', 'logo.png'), Buffer.alloc(4096, 7));
  for (const name of ['font.woff2', 'font.woff', 'photo.webp', 'photo.jpg', 'module.wasm'])
    writeFileSync(join(dir, 'assets', name), Buffer.alloc(64, 1));
  writeFileSync(join(dir, 'assets', 'app.js.map'), '{"version":3,"sourcesContent":["secret source"]}');
}

beforeAll(() => {
  dist = mkdtempSync(join(tmpdir(), 'web-assets-'));
  writeBuild(dist);
});
afterAll(() => rmSync(dist, { recursive: true, force: true }));

function app(dir = dist) {
  const web = webAssets(dir);
  return new Hono().get('*', (c) => web(c));
}

async function bytes(response: Response): Promise<Buffer> {
  return Buffer.from(await response.arrayBuffer());
}

describe('built SPA assets', () => {
  it.each([
    ['font.woff2', 'font/woff2'],
    ['font.woff', 'font/woff'],
    ['photo.webp', 'image/webp'],
    ['photo.jpg', 'image/jpeg'],
    ['module.wasm', 'application/wasm'],
    ['app.js', 'text/javascript; charset=utf-8'],
  ])('serves %s as %s', async (name, type) => {
    const response = await app().request(`/assets/${name}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(type);
  });

  it("serves a text asset's brotli copy when the browser accepts br, with Vary", async () => {
    const response = await app().request('/assets/app.js', {
      headers: { 'accept-encoding': 'gzip, deflate, br, zstd' },
    });
    expect(response.headers.get('content-encoding')).toBe('br');
    expect(response.headers.get('vary')).toBe('Accept-Encoding');
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    const body = await bytes(response);
    expect(body.byteLength).toBeLessThan(Buffer.byteLength(script));
    expect(brotliDecompressSync(body).toString()).toBe(script);
  });

  it('falls back to gzip, and to the plain file (still with Vary) when no encoding or br;q=0 only is accepted', async () => {
    const gzip = await app().request('/assets/app.js', { headers: { 'accept-encoding': 'br;q=0, gzip' } });
    expect(gzip.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(await bytes(gzip)).toString()).toBe(script);
    const plain = await app().request('/assets/app.js');
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.headers.get('vary')).toBe('Accept-Encoding');
    expect((await bytes(plain)).toString()).toBe(script);
  });

  it('does not compress binary files, and gives index.html for app routes', async () => {
    const png = await app().request('/assets/logo.png', { headers: { 'accept-encoding': 'br' } });
    expect(png.headers.get('content-encoding')).toBeNull();
    expect((await bytes(png)).byteLength).toBe(4096);
    for (const path of ['/', '/payments/pay_1']) {
      const route = await app().request(path, { headers: { accept: 'text/html', 'accept-encoding': 'br' } });
      expect(route.status).toBe(200);
      expect(route.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect((await bytes(route)).toString()).toBe(index);
    }
  });

  it('publishes neither the source maps nor the compressed copies under their own names', async () => {
    for (const path of [
      '/assets/app.js.map',
      '/assets/app.js.br',
      '/assets/app.js.gz',
      '/assets/app.js.%6dap',
    ]) {
      const response = await app().request(path, { headers: { accept: 'text/html' } });
      expect([path, response.status]).toEqual([path, 404]);
      expect(await response.text()).not.toContain('secret source');
    }
  });

  it('answers 404 for an unknown asset, and for an unknown file a script asks for, instead of the app shell', async () => {
    expect((await app().request('/assets/missing.js', { headers: { accept: 'text/html' } })).status).toBe(
      404,
    );
    expect((await app().request('/missing.js', { headers: { accept: '*/*' } })).status).toBe(404);
  });

  it('answers 503 with the fix until the app is built, and serves a build made after it started', async () => {
    const later = join(mkdtempSync(join(tmpdir(), 'web-assets-later-')), 'dist');
    try {
      const web = app(later);
      const before = await web.request('/', { headers: { accept: 'text/html' } });
      expect(before.status).toBe(503);
      expect(await before.text()).toContain('pnpm build');
      writeBuild(later);
      expect(await (await web.request('/', { headers: { accept: 'text/html' } })).text()).toBe(index);
    } finally {
      rmSync(join(later, '..'), { recursive: true, force: true });
    }
  });
});
