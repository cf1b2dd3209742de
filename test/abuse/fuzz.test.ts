import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BffProcess, DEMO_PASSWORD, sessionCookie, startBff } from './testing/bff-process.ts';

/**
 * Odd query strings and headers on every data route: never a 5xx, never an answer slower than 5 s, and nothing
 * left held (after them all, the user still has every walk place and every download place).
 */
const ROUTES = [
  '/api/payments',
  '/api/payments/summary',
  '/api/payments/export.csv',
  '/api/payments/search',
  '/api/payments/find',
  '/api/config',
];
const NAMES = [
  'status',
  'date_from',
  'date_to',
  'limit',
  'cursor',
  'group',
  'currency',
  'columns',
  'q',
  'id',
  'fresh',
];
const ODD_VALUES = [
  '__proto__',
  'constructor,toString',
  'hasOwnProperty',
  '\u0000=1+1',
  'x'.repeat(5_000),
  '2026-02-30T00:00:00',
  '2026-13-01T25:61:61',
  '\u202eexe.txt',
  '😀💸',
  '../../etc/passwd',
  '%2e%2e%2f',
  '{"$gt":""}',
  '[1,2,3]',
  'COMPLETED'.toLowerCase(),
  'TRUE',
  '-1',
  '1e3',
  '',
  ' ',
  'null',
  'undefined',
  'NaN',
  'EUR,,USD',
];

let bff: BffProcess;
let cookie = '';
const browser = new Agent({ connections: 16 });

beforeAll(async () => {
  bff = await startBff({ SANDBOX_SEED_COUNT: '5000' });
  cookie = await sessionCookie(bff.origin, 'demo', DEMO_PASSWORD);
}, 60_000);
afterAll(async () => {
  await bff?.stop();
  await browser.close();
});

/** An answer not complete after this is counted as a hang: a guard far above any answer's time, not a bound. */
const HANG_MS = 30_000;

/**
 * Asks and reads the whole answer: its status, or 0 when it never came whole (a connection cut, or a hang past
 * `HANG_MS`), and how long it took (for the message).
 */
async function ask(path: string, headers: Record<string, string> = {}) {
  const started = performance.now();
  try {
    const response = await request(`${bff.origin}${path}`, {
      headers: { cookie, 'x-csrf': '1', ...headers },
      dispatcher: browser,
      signal: AbortSignal.timeout(HANG_MS),
    });
    await response.body.arrayBuffer();
    return { status: response.statusCode, ms: performance.now() - started };
  } catch {
    return { status: 0, ms: performance.now() - started };
  }
}

/** Every odd value under every name on every route, cut to a fixed number by taking each n-th. */
function table(): { route: string; query: string; headers: Record<string, string> }[] {
  const all: { route: string; query: string; headers: Record<string, string> }[] = [];
  for (const [r, route] of ROUTES.entries())
    for (const [n, name] of NAMES.entries())
      for (const [v, value] of ODD_VALUES.entries()) {
        const query = new URLSearchParams({ [name]: value });
        // Repeated, wrong-case and unknown names too.
        if ((r + n + v) % 7 === 0) query.append(name, value);
        if ((r + n + v) % 11 === 0) query.set(name.toUpperCase(), value);
        const headers: Record<string, string> = {};
        if ((r + v) % 3 === 0)
          headers['x-company-id'] = value.slice(0, 300).replace(/[^\x20-\x7e]/g, '?') || '?';
        if ((n + v) % 5 === 0) headers.accept = 'text/event-stream';
        all.push({ route, query: query.toString(), headers });
      }
  const step = Math.floor(all.length / 300);
  return all.filter((_, i) => i % step === 0);
}

describe('fuzz', () => {
  it('odd query strings and headers on every data route: each answered whole, none 5xx, nothing left held', async () => {
    const cases = table();
    expect(cases.length).toBeGreaterThanOrEqual(250);
    const failures: string[] = [];
    for (let i = 0; i < cases.length; i += 8) {
      const batch = cases.slice(i, i + 8);
      const answers = await Promise.all(batch.map((c) => ask(`${c.route}?${c.query}`, c.headers)));
      for (const [j, answer] of answers.entries())
        if (answer.status >= 500 || answer.status === 0)
          failures.push(
            `${batch[j]?.route}?${batch[j]?.query.slice(0, 80)} → ${answer.status} in ${answer.ms.toFixed(0)} ms`,
          );
    }
    expect(failures).toEqual([]);
    // Nothing leaked: two downloads and two more walks at once are all still admitted.
    const walks = await Promise.all([
      ask('/api/payments/export.csv?status=FAILED'),
      ask('/api/payments/export.csv?status=AWAITING'),
      ask('/api/payments/summary?status=CANCELLED'),
      ask('/api/payments?date_to=2025-06-01T00:00:00'),
    ]);
    expect(walks.map((w) => w.status)).toEqual([200, 200, 200, 200]);
  }, 90_000);
});
