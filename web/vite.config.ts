import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/** Where `pnpm dev` sends `/api` calls: the BFF started by `pnpm start` (or `node server/src/main.ts`). */
const bff = process.env.BFF_URL ?? 'http://127.0.0.1:3000';

const TEXT = /\.(html|js|css|svg|json|webmanifest|txt)$/;
const MIN_COMPRESS_BYTES = 1024;

/**
 * Writes a `.br` and a `.gz` copy beside each text file of the build of 1 KB or more, at the highest levels
 * (the build pays once, not each server start); the BFF serves them in place of the file (`precompressed`).
 */
function precompress(): Plugin {
  return {
    name: 'payments:precompress',
    apply: 'build',
    async writeBundle({ dir }, bundle) {
      if (!dir) throw new Error('precompress: the build has no output folder');
      const files = Object.values(bundle).flatMap((file) => {
        const body = Buffer.from(file.type === 'chunk' ? file.code : file.source);
        return TEXT.test(file.fileName) && body.byteLength >= MIN_COMPRESS_BYTES
          ? [{ path: join(dir, file.fileName), body }]
          : [];
      });
      await Promise.all(
        files.flatMap(({ path, body }) => [
          promisify(brotliCompress)(body, {
            params: {
              [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
              [constants.BROTLI_PARAM_SIZE_HINT]: body.byteLength,
            },
          }).then((br) => writeFile(`${path}.br`, br)),
          promisify(gzip)(body, { level: constants.Z_BEST_COMPRESSION }).then((gz) =>
            writeFile(`${path}.gz`, gz),
          ),
        ]),
      );
    },
  };
}

export default defineConfig({
  plugins: [react(), precompress()],
  server: { proxy: { '/api': { target: bff, changeOrigin: false } } },
  build: {
    target: 'es2022',
    // Chromium, Firefox and Safari support modulepreload; the polyfill would be dead weight.
    modulePreload: { polyfill: false },
    // The BFF's CSP allows scripts and styles from 'self' only: never inline anything.
    assetsInlineLimit: 0,
    // maps are written for size analysis but not referenced from the served bundle
    sourcemap: 'hidden',
  },
});
