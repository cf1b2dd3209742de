import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebAssets } from './web-assets.ts';

let dist: string;
const script = `export const rows = ${JSON.stringify(Array.from({ length: 200 }, (_, i) => `row ${i}`))};\n`;
const index =
  '<!doctype html><html><head><title>Payments</title></head><body><div id="root"></div></body></html>';

beforeAll(() => {
  dist = mkdtempSync(join(tmpdir(), 'web-assets-'));
  mkdirSync(join(dist, 'assets'));
  writeFileSync(join(dist, 'index.html'), index);
  writeFileSync(join(dist, 'assets', 'app.js'), script);
  writeFileSync(join(dist, 'assets', 'logo.png'), Buffer.alloc(4096, 7));
  for (const name of ['font.woff2', 'font.woff', 'photo.webp', 'photo.jpg', 'module.wasm'])
    writeFileSync(join(dist, 'assets', name), Buffer.alloc(64, 1));
  writeFileSync(join(dist, 'assets', 'app.js.map'), '{"version":3,"sourcesContent":["secret source"]}');
});
afterAll(() => rmSync(dist, { recursive: true, force: true }));

function app() {
  const web = createWebAssets(dist);
  return new Hono().get('*', (c) => web.handle(c));
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
  ])('serves %s as %s', async (name, type) => {
    const response = await app().request(`/assets/${name}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(type);
  });

  it('serves a text asset brotli-compressed when the browser accepts br, with Vary', async () => {
    const response = await app().request('/assets/app.js', {
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(response.headers.get('content-encoding')).toBe('br');
    expect(response.headers.get('vary')).toBe('Accept-Encoding');
    const body = await bytes(response);
    expect(body.byteLength).toBeLessThan(Buffer.byteLength(script));
    expect(brotliDecompressSync(body).toString()).toBe(script);
  });

  it('falls back to gzip, and to the plain file when no encoding (or br;q=0 only) is accepted', async () => {
    const gzip = await app().request('/assets/app.js', { headers: { 'accept-encoding': 'br;q=0, gzip' } });
    expect(gzip.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(await bytes(gzip)).toString()).toBe(script);
    const plain = await app().request('/assets/app.js');
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect((await bytes(plain)).toString()).toBe(script);
  });

  it('does not compress binary files, and gives index.html (uncompressed when small) for app routes', async () => {
    const png = await app().request('/assets/logo.png', { headers: { 'accept-encoding': 'br' } });
    expect(png.headers.get('content-encoding')).toBeNull();
    expect((await bytes(png)).byteLength).toBe(4096);
    const route = await app().request('/payments/pay_1', {
      headers: { accept: 'text/html', 'accept-encoding': 'br' },
    });
    expect(route.status).toBe(200);
    expect((await bytes(route)).toString()).toBe(index);
  });

  it('does not publish the source maps the build leaves beside the scripts', async () => {
    const response = await app().request('/assets/app.js.map');
    expect(response.status).toBe(404);
    expect(createWebAssets(dist).paths()).not.toContain('/assets/app.js.map');
  });

  it('answers 404 for an unknown asset instead of the app shell', async () => {
    const response = await app().request('/assets/missing.js', { headers: { accept: 'text/html' } });
    expect(response.status).toBe(404);
  });
});
