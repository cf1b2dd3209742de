import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';

const BINARY = process.env.REDIS_SERVER ?? 'redis-server';

/** Whether a redis-server can be started here. CI installs Debian's package, so there a missing one fails. */
export function redisServerAvailable(): boolean {
  try {
    execFileSync(BINARY, ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    if (process.env.CI) throw new Error(`${BINARY} is required in CI (Debian: apt-get install redis-server)`);
    return false;
  }
}

export async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  return port;
}

export interface RedisServer {
  url: string;
  port: number;
  /** Kills the server (SIGKILL: as if its machine went away). */
  stop(): Promise<void>;
  /** Starts it again on the same port, empty. */
  start(): Promise<void>;
}

/** A real redis-server on loopback, in memory only, for one test file. */
export async function startRedisServer(): Promise<RedisServer> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    const proc = spawn(
      BINARY,
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        '--protected-mode',
        'yes',
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    child = proc;
    // a crashed or interrupted test run leaves no redis-server behind
    process.once('exit', () => proc.kill('SIGKILL'));
    let output = '';
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`redis-server did not start: ${output}`)), 10_000);
      proc.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
        output += chunk;
        if (output.includes('Ready to accept connections')) {
          clearTimeout(timer);
          resolve();
        }
      });
      proc.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`redis-server exited (${code}): ${output}`));
      });
    });
    proc.stdout?.resume();
  };
  const stop = async () => {
    const proc = child;
    child = undefined;
    if (proc === undefined || proc.exitCode !== null) return;
    const exited = once(proc, 'exit');
    proc.kill('SIGKILL');
    await exited;
  };
  await start();
  return { url: `redis://127.0.0.1:${port}`, port, stop, start };
}
