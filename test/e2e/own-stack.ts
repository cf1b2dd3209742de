import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { stack } from './stack.ts';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

export async function freePort(): Promise<number> {
  for (;;) {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const address = probe.address();
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    if (address === null || typeof address === 'string') throw new Error('no port');
    // never the shared stack's ports
    if (address.port !== stack.port && address.port !== stack.sandboxPort) return address.port;
  }
}

export interface OwnStack {
  origin: string;
  output(): string;
  stop(): Promise<void>;
}

/**
 * `node server/src/main.ts` with exactly `env` (plus PATH; PORT and HOST its own) on a free loopback port, for a spec that
 * needs a stack configured unlike the shared one; resolves once /healthz answers.
 */
export async function startOwnStack(env: Record<string, string>): Promise<OwnStack> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(process.execPath, ['server/src/main.ts'], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH ?? '', LOG_FORMAT: 'json', ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (chunk: Buffer) => {
    output += chunk.toString('utf8');
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
    if (child.exitCode === null) child.kill('SIGKILL');
  };
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the BFF exited (${child.exitCode}):\n${output}`);
    const healthy = await fetch(`${origin}/healthz`).then(
      (response) => response.ok,
      () => false,
    );
    if (healthy) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the BFF did not come up:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { origin, output: () => output, stop };
}
