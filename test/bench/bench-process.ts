/** What the benchmarks that run the BFF as a process share: ports, its start flags, its memory. */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** A free loopback port from `range`, probing upward from where the last call stopped. */
export function portsFrom(range: { from: number; to: number }): () => Promise<number> {
  let next = range.from;
  return async () => {
    while (next <= range.to) {
      const port = next++;
      const probe = createServer();
      const free = await new Promise<boolean>((resolve) => {
        probe.once('error', () => resolve(false));
        probe.listen(port, '127.0.0.1', () => resolve(true));
      });
      if (free) {
        await new Promise<void>((resolve) => probe.close(() => resolve()));
        return port;
      }
    }
    throw new Error(`no free port from ${range.from} to ${range.to}`);
  };
}

/**
 * The Node flags of `pnpm start`, read from the server's start script (`node [flags] src/main.ts`) so that a
 * benchmark cannot drift from it.
 */
export function startFlags(): string[] {
  const manifest = JSON.parse(readFileSync(new URL('../../server/package.json', import.meta.url), 'utf8'));
  const words = String(manifest.scripts?.start ?? '').split(/\s+/);
  if (words[0] !== 'node' || words.at(-1) !== 'src/main.ts')
    throw new Error(`server start script is not "node [flags] src/main.ts": ${manifest.scripts?.start}`);
  return words.slice(1, -1);
}

/** A process's resident memory, in MB. */
export function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
  return kb / 1024;
}
