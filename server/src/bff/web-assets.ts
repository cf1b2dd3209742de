import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import type { Context, MiddlewareHandler } from 'hono';

/** Source maps stay on disk for size analysis; the `.br` and `.gz` copies are served only in place of their file. */
const NOT_SERVED = /\.(map|br|gz)$/;
const ASSETS = /^\/assets\//;
const noNext = async () => {};

/**
 * The built SPA, from disk, with the brotli and gzip copies the build wrote beside each text file (`pnpm build`,
 * web/vite.config.ts). A page the app routes (an HTML navigation outside /assets/) gets `index.html`; while nothing
 * is built, 503 with the fix. Nothing on disk is touched until the first request: every server test makes a BFF,
 * most of them with no build.
 *
 * @example
 * const web = webAssets(settings.WEB_DIST_DIR);
 * app.get('*', (c) => web(c));
 */
export function webAssets(distDir: string): (c: Context) => Promise<Response> {
  let serve: { file: MiddlewareHandler; index: MiddlewareHandler } | undefined;
  return async (c) => {
    if (!existsSync(join(distDir, 'index.html'))) {
      return c.text(
        'The web app is not built: run `pnpm build` (or start with `pnpm start`, which builds first).',
        503,
      );
    }
    serve ??= {
      file: serveStatic({ root: distDir, precompressed: true }),
      index: serveStatic({ root: distDir, path: 'index.html', precompressed: true }),
    };
    const path = c.req.path;
    const navigation = !ASSETS.test(path) && (c.req.header('accept') ?? '').includes('text/html');
    const response =
      (NOT_SERVED.test(path) ? undefined : await serve.file(c, noNext)) ??
      (navigation ? await serve.index(c, noNext) : undefined);
    if (!response) return c.text('Not found', 404);
    // the same URL answers with or without compression: caches must key on what the browser accepts
    response.headers.set('vary', 'Accept-Encoding');
    return response;
  };
}
