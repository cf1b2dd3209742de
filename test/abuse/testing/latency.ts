import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { type Dispatcher, request } from 'undici';
import { percentile } from '../../bench/report.ts';
import type { PageSamplerOptions } from '../samplers/pages.ts';

const SAMPLER = fileURLToPath(new URL('../samplers/pages.ts', import.meta.url));

/** Milliseconds since the epoch, finer than Date.now(): comparable across the test's and the sampler's processes. */
const wallNow = () => performance.timeOrigin + performance.now();

export interface Sample {
  ok: boolean;
  /** When it started (wallNow()) and how long it took. */
  at: number;
  ms: number;
  /** The HTTP status, or the error's code when there was no answer. */
  outcome: number | string;
}

export interface LatencySummary {
  count: number;
  ok: number;
  successRate: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

/** Percentiles over every request, failures included at the time they took. */
export function summarize(samples: readonly Sample[]): LatencySummary {
  const times = samples.map((s) => s.ms);
  const ok = samples.filter((s) => s.ok).length;
  return {
    count: samples.length,
    ok,
    successRate: samples.length === 0 ? 0 : ok / samples.length,
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    p99: percentile(times, 99),
    max: Math.max(...times),
  };
}

/** The slowest samples, as `+12.3 s: 850 ms` from `since` (a wallNow()): where in a run the stalls were. */
export function slowest(samples: readonly Sample[], since: number, count = 3): string {
  return [...samples]
    .sort((a, b) => b.ms - a.ms)
    .slice(0, count)
    .map((s) => `+${((s.at - since) / 1000).toFixed(1)} s: ${s.ms.toFixed(0)} ms`)
    .join(', ');
}

export function describeLatency(summary: LatencySummary): string {
  const ms = (value: number) => `${value.toFixed(1)} ms`;
  return `p50 ${ms(summary.p50)}, p95 ${ms(summary.p95)}, p99 ${ms(summary.p99)}, max ${ms(summary.max)}, ${summary.ok}/${summary.count} ok`;
}

/**
 * `count` calls, one started every `intervalMs` whatever the earlier ones are doing (an open loop: a stalled
 * answer cannot hide the requests that would have queued behind it).
 */
export async function paced(
  count: number,
  intervalMs: number,
  call: () => Promise<Sample>,
): Promise<Sample[]> {
  const started = performance.now();
  const calls: Promise<Sample>[] = [];
  for (let i = 0; i < count; i++) {
    const due = started + i * intervalMs - performance.now();
    if (due > 0) await sleep(due);
    calls.push(call());
  }
  return Promise.all(calls);
}

/** A signed-in `GET` of `url`, ok when it answers 200 and its body arrives within `timeoutMs`. */
export function signedInGet(
  url: string,
  cookie: string,
  dispatcher: Dispatcher,
  timeoutMs = 5_000,
): () => Promise<Sample> {
  return async () => {
    const at = wallNow();
    const started = performance.now();
    try {
      const response = await request(url, {
        headers: { cookie, 'x-csrf': '1' },
        dispatcher,
        signal: AbortSignal.timeout(timeoutMs),
      });
      await response.body.arrayBuffer();
      return {
        ok: response.statusCode === 200,
        at,
        ms: performance.now() - started,
        outcome: response.statusCode,
      };
    } catch (error) {
      const code = (error as { code?: string; name?: string }).code ?? (error as Error).name;
      return { ok: false, at, ms: performance.now() - started, outcome: code };
    }
  };
}

/**
 * samplers/pages.ts in a process of its own. `ready` once it has warmed up; with `waitForGo`, `go()` starts its
 * samples. `samples` once it has taken them all; `kill` ends it early (a test that failed), and they reject.
 */
export function samplePages(options: PageSamplerOptions) {
  const child = spawn(process.execPath, [SAMPLER, JSON.stringify(options)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const ready = Promise.withResolvers<void>();
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
    if (output.startsWith('ready\n')) ready.resolve();
  });
  const samples = new Promise<Sample[]>((resolve, reject) =>
    child.once('close', () => {
      try {
        resolve(JSON.parse(output.replace(/^ready\n/, '')) as Sample[]);
      } catch {
        reject(new Error(`the sampler printed no samples: ${output.slice(0, 200)}`));
      }
      ready.reject(new Error('the sampler exited before it was ready'));
    }),
  );
  // Whoever waits only on one of them must not see the other's rejection as unhandled.
  ready.promise.catch(() => undefined);
  samples.catch(() => undefined);
  return {
    ready: ready.promise,
    go: () => child.stdin.end('go\n'),
    samples,
    kill: () => child.kill('SIGKILL'),
  };
}

/** A count of what the samples answered, e.g. `{ "200": 199, "UND_ERR_HEADERS_TIMEOUT": 1 }`. */
export function outcomes(samples: readonly Sample[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const { outcome } of samples) counts[outcome] = (counts[outcome] ?? 0) + 1;
  return counts;
}
