import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { writeFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

const SANDBOX_MAIN = fileURLToPath(new URL('../../../server/src/sandbox/main.ts', import.meta.url));
export const SANDBOX_CREDENTIALS = { id: 'sandbox_id', secret: 'sandbox_secret' };

export interface SandboxProcess {
  baseUrl: string;
  /** Writes the company tree the credentials see, as PAYMENTS_COMPANIES_FILE wants it. */
  writeCompaniesFile(path: string): Promise<void>;
  /** The sandbox's own answer for a list query, with Basic auth (what the BFF must pass on). */
  page(
    query: Record<string, string>,
    company?: string,
  ): Promise<{ data: { id: string }[]; next_cursor: string | null }>;
  stop(): Promise<void>;
}

/** `pnpm sandbox` on a loopback port: one upstream that several BFF replicas share. */
export async function startSandboxProcess(port: number, seedCount: number): Promise<SandboxProcess> {
  const child: ChildProcess = spawn(process.execPath, [SANDBOX_MAIN], {
    env: {
      PATH: process.env.PATH ?? '',
      SANDBOX_PORT: String(port),
      SANDBOX_SEED_COUNT: String(seedCount),
      SANDBOX_SEED_END: '2026-06-01T00:00:00Z',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // An interrupted test run takes it along.
  const orphaned = () => child.kill('SIGKILL');
  process.once('exit', orphaned);
  let output = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
  });
  const deadline = performance.now() + 30_000;
  while (!output.includes('Sandbox Payments API v1 at')) {
    if (child.exitCode !== null || performance.now() > deadline) {
      process.off('exit', orphaned);
      child.kill('SIGKILL');
      throw new Error(`the sandbox did not start: ${output}`);
    }
    await sleep(25);
  }
  const origin = `http://127.0.0.1:${port}`;
  const authorization = `Basic ${btoa(`${SANDBOX_CREDENTIALS.id}:${SANDBOX_CREDENTIALS.secret}`)}`;
  return {
    baseUrl: `${origin}/v1`,
    async writeCompaniesFile(path) {
      const response = await fetch(`${origin}/_sandbox/companies`, { headers: { authorization } });
      await writeFile(path, await response.text());
    },
    async page(query, company) {
      const url = new URL('/v1/payments/', origin);
      for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
      const response = await fetch(url, {
        headers: { authorization, ...(company ? { 'x-company-id': company } : {}) },
      });
      return (await response.json()) as { data: { id: string }[]; next_cursor: string | null };
    },
    async stop() {
      process.off('exit', orphaned);
      if (child.exitCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 3_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
