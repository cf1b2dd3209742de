/**
 * The stack the end-to-end tests and the web benchmark run against: one `node server/src/main.ts` process (BFF +
 * embedded sandbox) on loopback ports nobody else uses, with a fixed secret so runs are reproducible.
 */
export const stack = {
  port: Number(process.env.E2E_PORT ?? 3107),
  sandboxPort: Number(process.env.E2E_SANDBOX_PORT ?? 4117),
  seedCount: Number(process.env.E2E_SEED_COUNT ?? 20_000),
  appSecret: 'e2e-fixed-app-secret-0123456789abcdef0123456789',
  username: 'demo',
  password: 'demo-e2e-password',
  sandboxCredentials: { id: 'sandbox_id', secret: 'sandbox_secret' },
  otherCredentials: { id: 'other_id', secret: 'other_secret' },
};

export const baseURL = `http://127.0.0.1:${stack.port}`;
export const sandboxURL = `http://127.0.0.1:${stack.sandboxPort}`;

export function stackEnv(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    PORT: String(stack.port),
    HOST: '127.0.0.1',
    SANDBOX_PORT: String(stack.sandboxPort),
    SANDBOX_SEED_COUNT: String(stack.seedCount),
    // The specs' data ends on 31 May 2026, as their in-process oracles' (createSandbox's default) does.
    SANDBOX_SEED_END: '2026-06-01T00:00:00Z',
    APP_SECRET: stack.appSecret,
    DEMO_PASSWORD: stack.password,
    PAYMENTS_TIME_ZONE: 'UTC',
    SANDBOX_LIVE_RATE: '0',
    // Two Playwright workers sign in to this stack as one user at once: each gets the places a user has alone
    // (WALKS_PER_USER 4, EXPORT_MAX_PER_USER 2), so that one worker's summary, search or download never finds the
    // other's holding them. The limits themselves are proven by the BFF's own tests.
    WALKS_PER_USER: '8',
    EXPORT_MAX_PER_USER: '4',
    // An absolute path to a web build of one's own, so that parallel runs do not share web/dist.
    ...(process.env.E2E_WEB_DIST_DIR ? { WEB_DIST_DIR: process.env.E2E_WEB_DIST_DIR } : {}),
    ...overrides,
  };
}

/** The Chromium the machine provides; Playwright's own download is never used. */
export const chromium = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
};
