import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { companyTreeSchema, paymentPageSchema } from '@payments/shared';
import { describe, expect, it } from 'vitest';
import { startSandbox } from './start-sandbox.ts';
import { SANDBOX_AUTH } from './testing/test-requests.ts';

describe('startSandbox over a real loopback port', () => {
  it('serves pages and the company tree at baseUrl, then stops accepting connections on close', async () => {
    const running = await startSandbox({ port: 0, seedCount: 300 });
    try {
      expect(running.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
      const first = await fetch(`${running.baseUrl}/payments/?limit=5`, {
        headers: { Authorization: SANDBOX_AUTH },
      });
      expect(first.status).toBe(200);
      const body = paymentPageSchema.parse(await first.json());
      expect(body.data).toHaveLength(5);
      const next = await fetch(`${running.baseUrl}/payments?limit=5&cursor=${body.next_cursor}`, {
        headers: { Authorization: SANDBOX_AUTH },
      });
      expect(paymentPageSchema.parse(await next.json()).data[0]?.id).not.toBe(body.data[0]?.id);
      const tree = await fetch(new URL('/_sandbox/companies', running.baseUrl), {
        headers: { Authorization: SANDBOX_AUTH },
      });
      expect(companyTreeSchema.parse(await tree.json())[0]?.id).toBe(
        running.sandbox.tenants[0]?.rootCompanyId,
      );
      expect((await fetch(`${running.baseUrl}/payments/`)).status).toBe(401);
    } finally {
      await running.close();
    }
    await expect(fetch(`${running.baseUrl}/payments/`)).rejects.toThrow();
  });

  it('rejects when the port is taken, naming the cause', async () => {
    const first = await startSandbox({ port: 0, seedCount: 10 });
    const port = Number(new URL(first.baseUrl).port);
    try {
      await expect(startSandbox({ port, seedCount: 10 })).rejects.toThrow(/EADDRINUSE/);
    } finally {
      await first.close();
    }
  });
});

describe('pnpm sandbox (main.ts)', () => {
  const main = fileURLToPath(new URL('./main.ts', import.meta.url));

  it('prints the base URL and both tenants’ credentials, serves, and exits 0 on SIGTERM', async () => {
    const child = spawn(process.execPath, [main], {
      env: { ...process.env, SANDBOX_PORT: '0', SANDBOX_SEED_COUNT: '200' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let output = '';
      child.stdout.setEncoding('utf8');
      const baseUrl = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (chunk: string) => {
          output += chunk;
          const match = /(http:\/\/127\.0\.0\.1:\d+\/v1)/.exec(output);
          if (match && output.includes('other_secret')) resolve(match[1] as string);
        });
        child.once('exit', () => reject(new Error(`exited early: ${output}`)));
      });
      expect(output).toContain('sandbox_id');
      expect(output).toContain('sandbox_secret');
      expect(output).toContain('other_id');
      const response = await fetch(`${baseUrl}/payments/?limit=1`, {
        headers: { Authorization: SANDBOX_AUTH },
      });
      expect(response.status).toBe(200);
      child.kill('SIGTERM');
      const [code] = await once(child, 'exit');
      expect(code).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });

  it('stops with one line naming the variable when the configuration is bad', async () => {
    const child = spawn(process.execPath, [main], {
      env: { ...process.env, SANDBOX_PORT: '0', SANDBOX_SEED_COUNT: 'lots' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let errors = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      errors += chunk;
    });
    const [code] = await once(child, 'exit');
    expect(code).toBe(1);
    expect(errors.trim().split('\n')).toHaveLength(1);
    expect(errors).toContain('SANDBOX_SEED_COUNT');
  });
});
