import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
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
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

interface Asset {
  body: Uint8Array<ArrayBuffer>;
  type: string;
}

/**
 * The built SPA, read into memory once at start: the set of servable paths is exactly the files of the build,
 * so no request path can reach anything else on disk. Unknown paths asking for HTML get `index.html` (history
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
        else
          assets.set(`/${relative(distDir, path).split(sep).join('/')}`, {
            body: new Uint8Array(readFileSync(path)),
            type: TYPES[extname(name)] ?? 'application/octet-stream',
          });
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
      if (asset) return c.body(asset.body, 200, { 'content-type': asset.type });
      const wantsHtml = c.req.path === '/' || (c.req.header('accept') ?? '').includes('text/html');
      if (wantsHtml && !c.req.path.startsWith('/assets/'))
        return c.body(index.body, 200, { 'content-type': index.type });
      return c.text('Not found', 404);
    },
  };
}
