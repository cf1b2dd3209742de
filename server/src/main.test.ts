import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { closedPort } from './upstream/testing/serve-on-loopback.ts';

const MAIN = new URL('./main.ts', import.meta.url).pathname;

/**
 * Runs `node src/main.ts` with exactly this environment (no inherited PAYMENTS_*) until it exits. When stdout
 * matches `until`, `then` runs (by default: send SIGTERM).
 */
function run(
  env: Record<string, string>,
  until?: RegExp,
  then: (child: ChildProcess, stdout: string) => void = (child) => child.kill('SIGTERM'),
) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [MAIN], {
      env: { PATH: process.env.PATH ?? '', SANDBOX_SEED_COUNT: '200', ...env },
      cwd: new URL('..', import.meta.url).pathname,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      const matchedBefore = until?.test(stdout) ?? true;
      stdout += d;
      if (!matchedBefore && until?.test(stdout)) then(child, stdout);
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('pnpm start (server/src/main.ts)', () => {
  it.each([
    [{ PORT: '70000' }, 'config error: PORT: must be an integer 1–65535'],
    [{ PAYMENTS_TIME_ZONE: 'Nowhere/Land' }, 'config error: PAYMENTS_TIME_ZONE:'],
    [
      { PAYMENTS_ENVIRONMENT: 'production', PAYMENTS_BASE_URL: 'https://api.example/v1' },
      'config error: APP_SECRET: is required in production',
    ],
    [
      {
        PAYMENTS_ENVIRONMENT: 'production',
        PAYMENTS_BASE_URL: 'https://api.example/v1',
        APP_SECRET: 'x'.repeat(40),
        PAYMENTS_SECRET_ID: 'id',
        PAYMENTS_SECRET_PASSWORD: 'pw',
        PAYMENTS_COMPANIES_FILE: '/nonexistent.json',
      },
      'config error: AUTH_USERS_FILE: is required in production',
    ],
    [{ PAYMENTS_BASE_URL: 'https://api.example/v1' }, 'config error: PAYMENTS_SECRET_ID: is required'],
    [
      {
        PAYMENTS_ENVIRONMENT: 'production',
        PAYMENTS_BASE_URL: 'https://api.example/v1',
        APP_SECRET: 'x'.repeat(40),
        AUTH_USERS_FILE: '/nonexistent-users.json',
        PAYMENTS_SECRET_ID: 'sandbox_id',
        PAYMENTS_SECRET_PASSWORD: 'not-the-sandbox-one',
        PAYMENTS_COMPANIES_FILE: '/nonexistent.json',
      },
      'config error: PAYMENTS_SECRET_ID: the sandbox credentials cannot be used in production',
    ],
    [
      {
        PAYMENTS_BASE_URL: 'https://api.example/v1',
        PAYMENTS_SECRET_ID: 'id',
        PAYMENTS_SECRET_PASSWORD: 'pw',
        PAYMENTS_COMPANIES_FILE: '/nonexistent.json',
      },
      'config error: PAYMENTS_COMPANIES_FILE: /nonexistent.json cannot be read',
    ],
    [{ SANDBOX_FAULTS: 'error_500=7' }, 'config error: '],
  ])('bad configuration %j stops with one line naming the variable, exit 1', async (env, line) => {
    const result = await run(env);
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain(line);
    expect(result.stdout).toBe('');
  });

  it('a port in use stops with one clear line, exit 1', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const result = await run({ PORT: String(port), SANDBOX_PORT: String(await closedPort()) });
      expect(result.code).toBe(1);
      expect(result.stderr.trim()).toBe(
        `BFF: port ${port} on 127.0.0.1 is already in use (set PORT to another port)`,
      );
    } finally {
      blocker.close();
    }
  });

  it('sandbox mode starts both servers, prints the URL and the demo sign-in, and stops cleanly on SIGTERM', async () => {
    const port = await closedPort();
    const result = await run(
      { PORT: String(port), SANDBOX_PORT: String(await closedPort()), DEMO_PASSWORD: 'let-me-in-please' },
      /Sign in as demo/,
    );
    expect(result.stdout).toContain(`Payments dashboard: http://127.0.0.1:${port}  (sandbox)`);
    expect(result.stdout).toContain('Sign in as demo / let-me-in-please');
    expect(result.code).toBe(0);
  });

  it('on SIGTERM, a request in flight still gets its answer before the process exits', async () => {
    let answer: Promise<number> | undefined;
    const result = await run(
      {
        PORT: String(await closedPort()),
        SANDBOX_PORT: String(await closedPort()),
        DEMO_PASSWORD: 'let-me-in-please',
        SANDBOX_FAULTS: 'latency_ms=1500',
      },
      /Sign in as demo/,
      (child, stdout) => {
        const origin = /Payments dashboard: (http:\/\/\S+)/.exec(stdout)?.[1] ?? '';
        answer = (async () => {
          const signIn = await fetch(`${origin}/api/session`, {
            method: 'POST',
            headers: { 'x-csrf': '1', 'content-type': 'application/json' },
            body: JSON.stringify({ username: 'demo', password: 'let-me-in-please' }),
          });
          const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
          const page = fetch(`${origin}/api/payments?limit=2`, { headers: { cookie, 'x-csrf': '1' } });
          setTimeout(() => child.kill('SIGTERM'), 300);
          const response = await page;
          await response.json();
          return response.status;
        })();
      },
    );
    expect(await answer).toBe(200);
    expect(result.code).toBe(0);
  });

  it('METRICS_PORT serves Prometheus text on loopback, with the upstream requests counted; the public port has none', async () => {
    const metricsPort = await closedPort();
    let seen: { metrics: string; publicStatus: number } | undefined;
    const result = await run(
      {
        PORT: String(await closedPort()),
        SANDBOX_PORT: String(await closedPort()),
        DEMO_PASSWORD: 'let-me-in-please',
        METRICS_PORT: String(metricsPort),
      },
      /Sign in as demo/,
      (child, stdout) => {
        const origin = /Payments dashboard: (http:\/\/\S+)/.exec(stdout)?.[1] ?? '';
        void (async () => {
          const signIn = await fetch(`${origin}/api/session`, {
            method: 'POST',
            headers: { 'x-csrf': '1', 'content-type': 'application/json' },
            body: JSON.stringify({ username: 'demo', password: 'let-me-in-please' }),
          });
          const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
          await (
            await fetch(`${origin}/api/payments?limit=2`, { headers: { cookie, 'x-csrf': '1' } })
          ).json();
          const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
          const publicStatus = (await fetch(`${origin}/metrics`, { headers: { accept: 'text/plain' } }))
            .status;
          seen = { metrics, publicStatus };
        })().finally(() => child.kill('SIGTERM'));
      },
    );
    expect(result.code).toBe(0);
    expect(seen?.metrics).toMatch(/^payments_upstream_requests_total\{outcome="page",class="page"\} 1$/m);
    expect(seen?.metrics).toContain('# TYPE payments_upstream_budget_wait_seconds histogram');
    expect(seen?.publicStatus).toBe(404);
  });
});
