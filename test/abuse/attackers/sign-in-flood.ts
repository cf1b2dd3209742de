/**
 * The attacker of password-hash-flood.test.ts: `concurrency` sign-in attempts at all times, each a wrong password
 * for a made-up username (each costs the BFF a hash all the same), each from the next of `addresses` loopback
 * source addresses (127.<prefix>.x.y) over a new connection, for `durationMs`. It runs as a process of its own so
 * that its loops do not delay the test's own timings.
 *
 * Argument: JSON `{ port, concurrency, durationMs, addresses, prefix }`. Prints one JSON line of
 * totals (answers by status and code, its own CPU time), then exits.
 */
import { request } from 'node:http';

interface Options {
  port: number;
  concurrency: number;
  durationMs: number;
  addresses: number;
  prefix: number;
}

const options = JSON.parse(process.argv[2] ?? '') as Options;
const deadline = performance.now() + options.durationMs;
const outcomes: Record<string, number> = {};
let attempts = 0;

function address(n: number): string {
  const index = n % options.addresses;
  return `127.${options.prefix}.${1 + Math.floor(index / 250)}.${1 + (index % 250)}`;
}

function attempt(n: number): Promise<string> {
  const body = JSON.stringify({
    username: `guess-${n}`,
    password: `wrong-password-${n}`,
  });
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

await Promise.all(Array.from({ length: options.concurrency }, loop));
const { user, system } = process.cpuUsage();
console.log(JSON.stringify({ attempts, outcomes, cpuMs: Math.round((user + system) / 1000) }));
