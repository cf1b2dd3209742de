/**
 * The attacker of the sign-in abuse tests: `concurrency` sign-in attempts at all times, each from the next of
 * `addresses` loopback source addresses (127.<prefix>.x.y) over a new connection, for `durationMs`. By default
 * each is a wrong password for a made-up username (`guess-N`); `username` guesses one name instead (with
 * `totp`, a wrong code too), and `password` with `cookies` is a user signing in again and again with her own
 * device cookies. It runs as a process of its own so that its loops do not delay the test's own timings.
 *
 * Argument: JSON `{ port, concurrency, durationMs, addresses, prefix, username?, password?, totp?, cookies? }`.
 * Prints one JSON line of totals (answers by status and code, and per address, its own CPU time), then exits.
 */
import { request } from 'node:http';

/** What the flood is told on its command line (testing/sign-in-flood.ts builds it). */
export interface FloodOptions {
  port: number;
  concurrency: number;
  durationMs: number;
  addresses: number;
  prefix: number;
  username?: string;
  password?: string;
  totp?: string;
  cookies?: string[];
}

const options = JSON.parse(process.argv[2] ?? '') as FloodOptions;
const deadline = performance.now() + options.durationMs;
const outcomes: Record<string, number> = {};
let attempts = 0;

function address(n: number): string {
  const index = n % options.addresses;
  return `127.${options.prefix}.${1 + Math.floor(index / 250)}.${1 + (index % 250)}`;
}

function attempt(n: number): Promise<string> {
  const body = JSON.stringify({
    username: options.username ?? `guess-${n}`,
    password: options.password ?? `wrong-password-${n}`,
    ...(options.totp ? { totp: options.totp } : {}),
  });
  const cookie = options.cookies?.[n % options.cookies.length];
  return new Promise((resolve) => {
    const call = request(
      {
        host: '127.0.0.1',
        port: options.port,
        localAddress: address(n),
        method: 'POST',
        path: '/api/session',
        agent: false,
        headers: {
          'x-csrf': '1',
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          ...(cookie ? { cookie } : {}),
        },
        timeout: 30_000,
      },
      (answer) => {
        let text = '';
        answer.setEncoding('utf8').on('data', (chunk: string) => {
          text += chunk;
        });
        answer.on('end', () => {
          const code = /"code":"([a-z_]+)"/.exec(text)?.[1] ?? '';
          resolve(`${answer.statusCode} ${code}`.trim());
        });
      },
    );
    call.on('timeout', () => call.destroy(new Error('timeout')));
    call.on('error', (error: NodeJS.ErrnoException) => resolve(`error ${error.code ?? error.message}`));
    call.end(body);
  });
}

async function loop(): Promise<void> {
  while (performance.now() < deadline) {
    const outcome = await attempt(attempts++);
    outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
  }
}

const started = performance.now();
await Promise.all(Array.from({ length: options.concurrency }, loop));
const { user, system } = process.cpuUsage();
console.log(
  JSON.stringify({
    attempts,
    perSecond: Math.round(attempts / ((performance.now() - started) / 1000)),
    outcomes,
    cpuMs: Math.round((user + system) / 1000),
  }),
);
