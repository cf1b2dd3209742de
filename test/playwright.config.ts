import { defineConfig } from '@playwright/test';
import { baseURL, chromium, stackEnv } from './e2e/stack.ts';

/**
 * End-to-end tests in the machine's Chromium against the real stack (`node server/src/main.ts`: BFF serving the
 * built SPA, embedded sandbox). `pnpm test` builds the web app first; run `pnpm --filter @payments/web build`
 * before `pnpm --filter @payments/test e2e` on its own.
 */
export default defineConfig({
  testDir: './e2e',
  outputDir: './test-results/artifacts',
  fullyParallel: false,
  // The specs are independent (each signs in its own session; a spec that needs other settings, or ends sessions,
  // starts a stack of its own on free ports), but CI's machine has 2 cores: two browsers and the stack on them
  // took each test about twice as long (the first 74 tests in 9 min, as at one worker) and three waits for drawn
  // rows ran out. One worker in CI; two where a developer runs them.
  workers: process.env.CI ? 1 : 2,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: process.env.CI
    ? [['list'], ['html', { open: 'never', outputFolder: './playwright-report' }]]
    : 'list',
  use: {
    baseURL,
    browserName: 'chromium',
    launchOptions: { executablePath: chromium.executablePath, args: chromium.args },
    viewport: { width: 1400, height: 900 },
    locale: 'en-US',
    timezoneId: 'UTC',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  webServer: {
    command: 'node ../server/src/main.ts',
    url: `${baseURL}/healthz`,
    env: stackEnv(),
    reuseExistingServer: !process.env.CI,
    timeout: 60_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
