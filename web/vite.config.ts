import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** Where `pnpm dev` sends `/api` calls: the BFF started by `pnpm start` (or `node server/src/main.ts`). */
const bff = process.env.BFF_URL ?? 'http://127.0.0.1:3000';

export default defineConfig({
  plugins: [react()],
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
