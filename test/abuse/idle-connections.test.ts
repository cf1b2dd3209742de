import { type ChildProcess, spawn } from 'node:child_process';
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { Agent } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import {
  type BffProcess,
  DEMO_PASSWORD,
  openFileLimit,
  sessionCookie,
  startBff,
} from './testing/bff-process.ts';
import { describeLatency, paced, signedInGet, slowest, summarize } from './testing/latency.ts';

const ATTACKER = fileURLToPath(new URL('./attackers/idle-connections.ts', import.meta.url));
const ATTEMPTS = 25_000;
/** The bound on the attack; the test ends it sooner, once its measurements are made. */
const ATTACK_MS = 30_000;
/**
 * Connections the attackers open per second, together: bounded, so that on this 2-core machine they leave the
 * BFF its cores (a remote attacker would not share them). The faster they come, the more of them the BFF's
 * headers timeout closes in the same 1 s check, and the longer that check holds its event loop.
 */
const OPEN_PER_SECOND = 5_000;
const MAX_ATTACKERS = 8;

interface AttackerTotals {
  fdLimit: number;
  count: number;
  attempted: number;
  peakOpen: number;
  refused: number;
  timedOut: number;
  answered408: number;
  heldMsMedian: number;
  errors: Record<string, number>;
}

/**
 * Attacker processes enough for ATTEMPTS idle connections, each kept within its own descriptor limit (the one
 * this test runs under, which the children inherit): with `ulimit -n` 20000, two of 12,500.
 */
function attack(port: number) {
  const perProcess = Math.min(12_500, openFileLimit() - 100);
  const processes = Math.min(MAX_ATTACKERS, Math.ceil(ATTEMPTS / perProcess));
  const children: ChildProcess[] = [];
  const filled: Promise<void>[] = [];
  const totals: Promise<AttackerTotals>[] = [];
  for (let i = 0; i < processes; i++) {
    const count = Math.min(perProcess, ATTEMPTS - i * perProcess);
    const options = { port, count, durationMs: ATTACK_MS, openPerSecond: OPEN_PER_SECOND / processes };
    const child = spawn(process.execPath, [ATTACKER, JSON.stringify(options)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.push(child);
    const filledLine = Promise.withResolvers<AttackerTotals>();
    const doneLine = Promise.withResolvers<AttackerTotals>();
    let buffered = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      buffered += chunk;
      for (let end = buffered.indexOf('\n'); end >= 0; end = buffered.indexOf('\n')) {
        const event = JSON.parse(buffered.slice(0, end)) as AttackerTotals & { event: string };
        buffered = buffered.slice(end + 1);
        (event.event === 'filled' ? filledLine : doneLine).resolve(event);
      }
    });
    // After its lines, a no-op; before them, the attacker died.
    child.once('close', () => {
      const died = new Error(`attacker ${i} exited before printing its totals`);
      filledLine.reject(died);
      doneLine.reject(died);
    });
    filled.push(filledLine.promise.then(() => undefined));
    totals.push(doneLine.promise);
  }
  return {
    processes,
    perProcess,
    filled: Promise.all(filled),
    totals: Promise.all(totals),
    /** The attackers let go of their connections at once and report. */
    stop: () => {
      for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
    },
    kill: () => {
      for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}

/** What a brand-new client gets while the attack is on: an answer, a close without one, a reset, or nothing. */
function newConnectionProbe(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    let received = '';
    const done = (outcome: string) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(outcome);
    };
    const timer = setTimeout(() => done('no answer within 2 s'), 2_000);
    socket.on('connect', () =>
      socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n'),
    );
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
      const status = /^HTTP\/1\.1 (\d{3})/.exec(received)?.[1];
      if (status) done(`answered ${status}`);
    });
    socket.on('error', (error: NodeJS.ErrnoException) => done(`error ${error.code ?? error.name}`));
    socket.on('close', () => done('closed without an answer'));
  });
}

describe('idle connections', () => {
  let bff: BffProcess | undefined;
  let stopAttack: (() => void) | undefined;
  afterAll(async () => {
    stopAttack?.();
    await bff?.stop();
  });

  it('while 25,000 idle connections are attempted, a signed-in user keeps getting pages (≥ 99 %, p99 ≤ 1 s)', async () => {
    // The default MAX_CONNECTIONS: the descriptor limit less 512, at most 16,384.
    bff = await startBff();
    // Like a browser: two keep-alive connections, opened before the attack.
    const browser = new Agent({ connections: 2, keepAliveTimeout: 120_000, keepAliveMaxTimeout: 120_000 });
    const cookie = await sessionCookie(bff.origin, 'demo', DEMO_PASSWORD, browser);
    const page = signedInGet(`${bff.origin}/api/payments?limit=50`, cookie, browser);
    await paced(50, 10, page);
    const idle = summarize(await paced(200, 10, page));

    const started = performance.now();
    const attackers = attack(bff.port);
    stopAttack = attackers.kill;
    let peakDescriptors = 0;
    const sampler = setInterval(() => {
      peakDescriptors = Math.max(peakDescriptors, bff?.openDescriptors() ?? 0);
    }, 500);
    await attackers.filled;
    const filledAfterMs = performance.now() - started;
    // The last attempts are still being accepted or refused: measure a full server.
    await sleep(1_000);
    const [samples, probes] = await Promise.all([
      paced(200, 40, page),
      paced(16, 500, async () => ({
        ok: true,
        at: performance.now(),
        ms: 0,
        outcome: await newConnectionProbe(bff?.port ?? 0),
      })),
    ]);
    const during = summarize(samples);
    // Then the attackers let go of every connection at once, in the middle of these.
    const released = paced(40, 50, page);
    await sleep(1_000);
    const releasedAt = performance.now();
    attackers.stop();
    const release = summarize(await released);
    const totals = await attackers.totals;
    clearInterval(sampler);
    await browser.close();

    const sum = (key: 'attempted' | 'peakOpen' | 'refused' | 'timedOut' | 'answered408') =>
      totals.reduce((all, each) => all + each[key], 0);
    const probeOutcomes: Record<string, number> = {};
    for (const probe of probes) probeOutcomes[probe.outcome] = (probeOutcomes[probe.outcome] ?? 0) + 1;
    console.log(
      [
        `idle connections: ulimit -n ${totals[0]?.fdLimit}, ${attackers.processes} attacker processes of ≤ ${attackers.perProcess}`,
        `  attempted ${sum('attempted')} (first ${ATTEMPTS} made in ${(filledAfterMs / 1000).toFixed(1)} s), peak held ${sum('peakOpen')}, refused at once ${sum('refused')}, held then closed by the BFF ${sum('timedOut')} (408: ${sum('answered408')}, median held ${totals[0]?.heldMsMedian} ms)`,
        `  BFF descriptors at most ${peakDescriptors}; stderr: ${JSON.stringify(bff.stderr().slice(0, 200))}`,
        `  user idle:   ${describeLatency(idle)}`,
        `  user attack: ${describeLatency(during)}; slowest at ${slowest(samples, started)} after the attack began`,
        `  brand-new connections during the attack: ${JSON.stringify(probeOutcomes)}`,
        `  while the attackers let go of their connections (at +${((releasedAt - started) / 1000).toFixed(1)} s): ${describeLatency(release)}`,
      ].join('\n'),
    );

    // The attack filled the BFF: it refused connections at once, so the user's pages were asked of a full server.
    expect(sum('refused')).toBeGreaterThan(0);
    expect(during.successRate).toBeGreaterThanOrEqual(0.99);
    expect(during.p99).toBeLessThanOrEqual(1_000);
    // Room stayed for the BFF's own sockets: no descriptor ran out, nothing failed to be accepted.
    expect(peakDescriptors).toBeLessThan(openFileLimit(bff.pid) - 256);
    expect(bff.stderr()).toBe('');
  });
});
