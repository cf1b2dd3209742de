import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes, scryptSync } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { type AddressInfo, createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { base32Decode, newTotpSecret, totpCode } from '@payments/server/totp';
import { type Dispatcher, request } from 'undici';

const SERVER_DIR = fileURLToPath(new URL('../../../server/', import.meta.url));
const MAIN = `${SERVER_DIR}src/main.ts`;
const USER_ADD = `${SERVER_DIR}src/cli/user-add.ts`;

export const DEMO_PASSWORD = 'abuse-suite-demo-password';
const APP_SECRET = 'abuse-suite-app-secret-0123456789abcdef0123';

/** BFFs still running when this process exits (a failed or interrupted test) go with it. */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** A free loopback port from the kernel's ephemeral range: never 3000/3107/4010/4117 that people and e2e use. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** The soft open-file limit this process (and so every child it starts) runs under. */
export function openFileLimit(pid: number | 'self' = 'self'): number {
  const soft = /^Max open files\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/limits`, 'utf8'))?.[1];
  return soft === undefined ? 1024 : Number(soft);
}

export interface BffProcess {
  origin: string;
  port: number;
  pid: number;
  stdout(): string;
  stderr(): string;
  /** The JSON lines the BFF logged on stdout so far. */
  logLines(): Record<string, unknown>[];
  openDescriptors(): number;
  /** CPU time (ms) so far of its main thread (the event loop) and of all its other threads (libuv's pool: scrypt). */
  cpuTimes(): { mainMs: number; otherThreadsMs: number };
  /** Resolves when the process has exited and its output is read, with the time. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
  signal(name: NodeJS.Signals): void;
  /** SIGTERM, then SIGKILL if it is still there after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * `node server/src/main.ts` as `pnpm start` runs it, on free loopback ports, with exactly this environment (no
 * inherited PAYMENTS_* or REQUIRE_WEB_DIST). Resolves once it printed its address.
 */
export async function startBff(env: Record<string, string> = {}): Promise<BffProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--max-semi-space-size=16', MAIN], {
    cwd: SERVER_DIR,
    env: {
      PATH: process.env.PATH ?? '',
      HOST: '127.0.0.1',
      PORT: String(port),
      SANDBOX_PORT: String(await freePort()),
      SANDBOX_SEED_COUNT: '20000',
      // Fixed data: the two years before 1 June 2026, whatever the day the run is.
      SANDBOX_SEED_END: '2026-06-01T00:00:00Z',
      DEMO_PASSWORD,
      APP_SECRET,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  // 'close', not 'exit': by then the last lines it wrote have been read too.
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) =>
    child.once('close', (code, signal) => resolve({ code, signal, at: performance.now() })),
  );
  const pid = child.pid ?? -1;
  const bff: BffProcess = {
    origin: `http://127.0.0.1:${port}`,
    port,
    pid,
    stdout: () => stdout,
    stderr: () => stderr,
    logLines: () =>
      stdout
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>),
    openDescriptors: () => readdirSync(`/proc/${pid}/fd`).length,
    cpuTimes: () => threadCpuTimes(pid),
    exited,
    signal: (name) => {
      child.kill(name);
    },
    stop: (graceMs = 5_000) => stopChild(child, exited, graceMs),
  };
  // A guard against a start that hangs, not a bound: seeding 200,000 payments takes a few seconds idle, and
  // more than 20 on a loaded 2-core machine.
  const deadline = performance.now() + 60_000;
  while (!/Payments dashboard: http/.test(stdout)) {
    if (child.exitCode !== null || performance.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the BFF did not start: ${stderr || stdout}`);
    }
    await sleep(25);
  }
  return bff;
}

/** utime + stime of each thread, from /proc/PID/task/TID/stat (in clock ticks, 100 a second on Linux). */
function threadCpuTimes(pid: number): { mainMs: number; otherThreadsMs: number } {
  let mainMs = 0;
  let otherThreadsMs = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ms = (Number(fields[11]) + Number(fields[12])) * 10;
    if (Number(tid) === pid) mainMs += ms;
    else otherThreadsMs += ms;
  }
  return { mainMs, otherThreadsMs };
}

async function stopChild(child: ChildProcess, exited: Promise<unknown>, graceMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

/** A users file as `pnpm user:add` writes it: each user sees every company. */
export async function writeUsersFile(file: string, users: { username: string; password: string }[]) {
  // One after the other: each run reads the file and writes it back.
  for (const { username, password } of users) {
    const child = spawn(process.execPath, [USER_ADD, '--file', file, '--username', username, '--all'], {
      env: { PATH: process.env.PATH ?? '', USER_ADD_PASSWORD: password },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    if (code !== 0) throw new Error(`user:add ${username} failed: ${stderr}`);
  }
}

/**
 * A users file of many users sharing one password, as `pnpm user:add` writes each (one run, its entry copied:
 * a hash each would take a second apiece), those named in `withCodes` with a TOTP secret. The secrets by name.
 */
export async function writeManyUsers(
  file: string,
  names: string[],
  password: string,
  withCodes: string[] = [],
  /** scrypt's N for a cheaper hash than pnpm user:add's 2^15 (the users file takes 2^10 and up). */
  cost?: number,
): Promise<Map<string, string>> {
  await writeUsersFile(file, [{ username: 'template', password }]);
  const [written] = (JSON.parse(await readFile(file, 'utf8')) as { users: Record<string, unknown>[] }).users;
  const template = cost === undefined ? written : { ...written, password_hash: scryptHash(password, cost) };
  const secrets = new Map(withCodes.map((name) => [name, newTotpSecret()]));
  const users = names.map((username) => ({
    ...template,
    username,
    ...(secrets.has(username) ? { totp_secret: secrets.get(username) } : {}),
  }));
  await writeFile(file, JSON.stringify({ users }, null, 2), { mode: 0o600 });
  return secrets;
}

/** `scrypt$N$8$1$salt$hash`, the users file's format, at cost N. */
function scryptHash(password: string, N: number): string {
  const salt = randomBytes(16);
  const hash = scryptSync(password.normalize('NFC'), salt, 32, { N, r: 8, p: 1, maxmem: 256 * 1024 * 1024 });
  return ['scrypt', N, 8, 1, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

/** The code an authenticator app shows now for `secret`. */
export const codeOf = (secret: string) => totpCode(base32Decode(secret), Date.now());

export interface SignInAnswer {
  status: number;
  retryAfter: number | undefined;
  code: string | undefined;
  detail: string | undefined;
  /** A slowed sign-in: when its turn in the user's line should come. */
  turnInSeconds: number | undefined;
  /** `name=value` of the session cookie, for the Cookie header; '' when none was set. */
  cookie: string;
  /** `name=value` of the device cookie a first sign-in from a browser gets; '' when none was set. */
  deviceCookie: string;
}

/** `POST /api/session` as the web app sends it. */
export async function signIn(
  origin: string,
  username: string,
  password: string,
  dispatcher?: Dispatcher,
  /** The Cookie header a browser would send with it (its device cookie). */
  cookie?: string,
  /** The code from the user's authenticator app. */
  totp?: string,
): Promise<SignInAnswer> {
  const response = await request(`${origin}/api/session`, {
    method: 'POST',
    headers: { 'x-csrf': '1', 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
    body: JSON.stringify({ username, password, ...(totp ? { totp } : {}) }),
    ...(dispatcher ? { dispatcher } : {}),
  });
  const body = (await response.body.json()) as { code?: string; detail?: string; turn_in_seconds?: number };
  const cookies = [response.headers['set-cookie'] ?? []].flat().map((line) => line.split(';')[0] ?? '');
  const retryAfter = response.headers['retry-after'];
  return {
    status: response.statusCode,
    retryAfter: retryAfter === undefined ? undefined : Number(retryAfter),
    code: body.code,
    detail: body.detail,
    turnInSeconds: body.turn_in_seconds,
    cookie: cookies.find((c) => /^(__Host-)?session=/.test(c)) ?? '',
    deviceCookie: cookies.find((c) => /^(__Host-)?device=/.test(c)) ?? '',
  };
}

/** A sign-in that must work: the cookie. */
export async function sessionCookie(
  origin: string,
  username: string,
  password: string,
  dispatcher?: Dispatcher,
): Promise<string> {
  const answer = await signIn(origin, username, password, dispatcher);
  if (answer.status !== 200 || answer.cookie === '')
    throw new Error(`sign-in as ${username} answered ${answer.status} ${answer.code ?? ''}`);
  return answer.cookie;
}

/** Waits until `found` holds for the BFF's log, or `timeoutMs` passes; the last log lines either way. */
export async function waitForLog(
  bff: BffProcess,
  found: (lines: Record<string, unknown>[]) => boolean,
  timeoutMs: number,
): Promise<Record<string, unknown>[]> {
  const deadline = performance.now() + timeoutMs;
  let lines = bff.logLines();
  while (!found(lines) && performance.now() < deadline) {
    await sleep(50);
    lines = bff.logLines();
  }
  return lines;
}
