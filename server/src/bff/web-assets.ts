import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Context } from 'hono';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
};

interface Asset {
  body: Uint8Array<ArrayBuffer>;
  type: string;
  /** Compressed once at start, for text files where it pays; served when the browser accepts it. */
  br?: Uint8Array<ArrayBuffer>;
  gzip?: Uint8Array<ArrayBuffer>;
}

const COMPRESSIBLE = /^(text\/|application\/(json|manifest\+json)|image\/svg\+xml)/;
const MIN_COMPRESS_BYTES = 1024;

function readAsset(path: string, type: string): Asset {
  const body = new Uint8Array(readFileSync(path));
  // Source maps are large and only developer tools fetch them: not worth start-up time.
  const worth = COMPRESSIBLE.test(type) && body.byteLength >= MIN_COMPRESS_BYTES && !path.endsWith('.map');
  if (!worth) return { body, type };
  return {
    body,
    type,
    br: new Uint8Array(
      brotliCompressSync(body, {
        params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: body.byteLength },
      }),
    ),
    gzip: new Uint8Array(gzipSync(body, { level: 9 })),
  };
}

/** The encodings a request's Accept-Encoding allows (a `q=0` entry refuses one). */
function acceptedEncodings(header: string | undefined): Set<string> {
  const accepted = new Set<string>();
  for (const part of (header ?? '').toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    const refused = params.some((param) => /^\s*q\s*=\s*0(\.0*)?\s*$/.test(param));
    if (name && !refused) accepted.add(name.trim());
  }
  return accepted;
}

function send(c: Context, asset: Asset): Response {
  const headers: Record<string, string> = { 'content-type': asset.type };
  if (asset.br === undefined || asset.gzip === undefined) return c.body(asset.body, 200, headers);
  headers.vary = 'Accept-Encoding';
  const accepted = acceptedEncodings(c.req.header('accept-encoding'));
  if (accepted.has('br')) return c.body(asset.br, 200, { ...headers, 'content-encoding': 'br' });
  if (accepted.has('gzip')) return c.body(asset.gzip, 200, { ...headers, 'content-encoding': 'gzip' });
  return c.body(asset.body, 200, headers);
}

/**
 * The built SPA, read into memory once at start: the set of servable paths is exactly the files of the build
 * (source maps left out), so no request path can reach anything else on disk. Unknown paths asking for HTML get `index.html` (history
 * fallback); a missing build answers 503 with the fix.
 */
export function createWebAssets(distDir: string | null) {
  const assets = new Map<string, Asset>();
  const built = distDir !== null && existsSync(join(distDir, 'index.html'));
  if (built) {
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        // source maps stay on disk for size analysis; the app's sources are not published
        else if (extname(name) !== '.map')
          assets.set(
            `/${relative(distDir, path).split(sep).join('/')}`,
            readAsset(path, TYPES[extname(name)] ?? 'application/octet-stream'),
          );
      }
    };
    walk(distDir);
  }
  const index = assets.get('/index.html');

  return {
    built,
    paths: () => [...assets.keys()],
    handle(c: Context): Response {
      if (!built || !index) {
        return c.text(
          'The web app is not built: run `pnpm build` (or start with `pnpm start`, which builds first).',
          503,
        );
      }
      const asset = assets.get(c.req.path);
      if (asset) return send(c, asset);
      const wantsHtml = c.req.path === '/' || (c.req.header('accept') ?? '').includes('text/html');
      if (wantsHtml && !c.req.path.startsWith('/assets/')) return send(c, index);
      return c.text('Not found', 404);
    },
  };
}
