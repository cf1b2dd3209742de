/** What the benchmarks that run the BFF and the sandbox as processes share: ports, flags, memory, CPU, sign-in. */
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { COMPANY_HEADER, CSRF_HEADER } from '@payments/shared';

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
function startFlags(): string[] {
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

/** CPU time a process has used, user and system, in ms (/proc counts it in USER_HZ, 100 a second on Linux). */
export function cpuMsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Starts `main` with `args` and `env` only, its output in `logFile`; resolves once its output matches `ready`. */
async function spawnUntil(
  command: { main: string; args: string[]; name: string },
  env: Record<string, string>,
  logFile: string,
  ready: RegExp,
  onSpawn: (child: ChildProcess) => void,
): Promise<{ process: ChildProcess; pid: number; match: RegExpExecArray }> {
  const log = openSync(logFile, 'w');
  const child = spawn(process.execPath, [...command.args, command.main], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', log, 'inherit'],
  });
  onSpawn(child);
  closeSync(log); // the child has its own descriptor
  let exited: number | null = null;
  child.once('exit', (code) => {
    exited = code ?? -1;
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    const seen = readFileSync(logFile, 'utf8');
    const match = ready.exec(seen);
    if (match) return { process: child, pid: child.pid ?? 0, match };
    if (exited !== null) throw new Error(`${command.name} exited with ${exited}: ${seen}`);
    if (Date.now() > deadline) throw new Error(`${command.name} did not start within 60 s: ${seen}`);
    await sleep(50);
  }
}

/**
 * `server/src/main.ts` as `pnpm start` runs it (the start script's flags), with `env` only and its output in
 * `logFile` rather than a pipe this process reads (that would wake the load generator for every log line);
 * resolves with its address once it prints it. `onSpawn` sees the process first, so a caller can stop it whatever
 * happens next.
 */
export async function spawnBff(
  env: Record<string, string>,
  logFile: string,
  onSpawn: (child: ChildProcess) => void = () => {},
): Promise<{ process: ChildProcess; pid: number; origin: string }> {
  const main = fileURLToPath(new URL('../../server/src/main.ts', import.meta.url));
  const started = await spawnUntil(
    { main, args: startFlags(), name: 'BFF' },
    env,
    logFile,
    /Payments dashboard: (http:\/\/\S+)/,
    onSpawn,
  );
  return { process: started.process, pid: started.pid, origin: new URL(started.match[1] ?? '').origin };
}

/**
 * `server/src/sandbox/main.ts` (`pnpm sandbox`), configured by `env` (SANDBOX_PORT, SANDBOX_SEED_COUNT,
 * SANDBOX_FAULTS, …), its output in `logFile`; resolves with its origin once it listens.
 */
export async function spawnSandbox(
  env: Record<string, string>,
  logFile: string,
  onSpawn: (child: ChildProcess) => void = () => {},
): Promise<{ process: ChildProcess; pid: number; origin: string }> {
  const main = fileURLToPath(new URL('../../server/src/sandbox/main.ts', import.meta.url));
  const started = await spawnUntil(
    { main, args: [], name: 'sandbox' },
    // Fixed data (the two years before 1 June 2026) unless a bench says otherwise.
    { SANDBOX_SEED_END: '2026-06-01T00:00:00Z', ...env },
    logFile,
    /Sandbox Payments API v1 at (http:\/\/\S+)\/v1/,
    onSpawn,
  );
  return { process: started.process, pid: started.pid, origin: started.match[1] ?? '' };
}

/** Signs in (as `demo` unless told) and returns the headers a signed-in browser sends: session cookie and CSRF header. */
export async function signInHeaders(
  origin: string,
  password: string,
  username = 'demo',
): Promise<Record<string, string>> {
  const response = await fetch(`${origin}/api/session`, {
    method: 'POST',
    headers: { [CSRF_HEADER]: '1', 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  if (response.status !== 200) throw new Error(`sign-in: ${response.status}`);
  return { cookie: (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '', [CSRF_HEADER]: '1' };
}

export interface SearchRun {
  /** ms from the request to the first `match` event (NaN when none came). */
  firstMatchMs: number;
  ms: number;
  /** The `done` event's rows read and matches found. */
  read: number;
  found: number;
  /** Every matched payment id, in the order they came. */
  ids: string[];
}

/**
 * `GET /api/payments/search` read as a browser reads it: the event stream parsed as it arrives, the time of its
 * first match taken. Throws on a status other than 200 or an `error` event.
 */
export async function searchStream(
  origin: string,
  session: Record<string, string>,
  path: string,
  company: string,
  signal: AbortSignal,
): Promise<SearchRun> {
  const started = performance.now();
  const response = await fetch(`${origin}${path}`, {
    headers: { ...session, [COMPANY_HEADER]: company, accept: 'text/event-stream' },
    signal,
  });
  if (response.status !== 200 || !response.body)
    throw new Error(`${path}: ${response.status} ${(await response.text()).slice(0, 200)}`);
  const run: SearchRun = { firstMatchMs: Number.NaN, ms: 0, read: 0, found: 0, ids: [] };
  let buffered = '';
  let done = false;
  const decoder = new TextDecoder();
  for await (const chunk of response.body) {
    buffered += decoder.decode(chunk, { stream: true });
    for (let end = buffered.indexOf('\n\n'); end >= 0; end = buffered.indexOf('\n\n')) {
      const lines = buffered.slice(0, end).split('\n');
      buffered = buffered.slice(end + 2);
      const event = lines
        .find((l) => l.startsWith('event:'))
        ?.slice(6)
        .trim();
      const data = JSON.parse(
        lines
          .filter((l) => l.startsWith('data:'))
          .map((l) => l.slice(5))
          .join('\n') || 'null',
      );
      if (event === 'match') {
        if (Number.isNaN(run.firstMatchMs)) run.firstMatchMs = performance.now() - started;
        for (const row of data.data as { id: unknown }[]) run.ids.push(String(row.id));
      } else if (event === 'error') throw new Error(`${path}: ${JSON.stringify(data)}`);
      else if (event === 'done') {
        run.read = data.read;
        run.found = data.found;
        done = true;
      }
    }
  }
  if (!done) throw new Error(`${path}: the stream ended without done`);
  run.ms = performance.now() - started;
  return run;
}
