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
/** The bound on each attack; the test ends it sooner, once its measurements are made. */
const ATTACK_MS = 30_000;
/**
 * Connections the attackers open per second, together: bounded, so that on this 2-core machine they leave the
 * BFF its cores (a remote attacker would not share them).
 */
const OPEN_PER_SECOND = 5_000;
const MAX_ATTACKERS = 8;
/** Source addresses per attacker process (127.<10 + process>.x.y): far more than one address may hold. */
const ADDRESSES_PER_ATTACKER = 100;
const BROWSER_ADDRESS = '127.0.0.2';
const NEWCOMER_ADDRESS = '127.0.0.3';

interface AttackerTotals {
  fdLimit: number;
  count: number;
  attempted: number;
  peakOpen: number;
  answered: number;
  closedEarly: number;
  closedLate: number;
  answered408: number;
  lateHeldMs: { p10: number; p50: number; p90: number; max: number };
  errors: Record<string, number>;
}

/**
 * Attacker processes enough for `attempts` connections, each kept within its own descriptor limit (the one this
 * test runs under, which the children inherit): with `ulimit -n` 20000, two of 12,500 for 25,000. On a machine
 * whose limit is lower, at most MAX_ATTACKERS processes scale the attack down with it (as the BFF's default
 * MAX_CONNECTIONS does).
 */
function attack(port: number, attempts: number, mode: { request: boolean; earlyMs: number }) {
  const perProcess = Math.min(12_500, openFileLimit() - 100);
  const processes = Math.min(MAX_ATTACKERS, Math.ceil(attempts / perProcess));
  const children: ChildProcess[] = [];
  const filled: Promise<void>[] = [];
  const totals: Promise<AttackerTotals>[] = [];
  for (let i = 0; i < processes; i++) {
    const count = Math.min(perProcess, attempts - i * perProcess);
    const addresses = Array.from(
      { length: ADDRESSES_PER_ATTACKER },
      (_, j) => `127.${10 + i}.${Math.floor(j / 250)}.${1 + (j % 250)}`,
    );
    const options = {
      port,
      count,
      durationMs: ATTACK_MS,
      openPerSecond: OPEN_PER_SECOND / processes,
      addresses,
      ...mode,
    };
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

const sum = (
  totals: AttackerTotals[],
  key: 'attempted' | 'peakOpen' | 'answered' | 'closedEarly' | 'closedLate' | 'answered408',
) => totals.reduce((all, each) => all + each[key], 0);

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

/** How long after its answer the BFF closes a kept-alive connection left idle (one GET /healthz, from `localAddress`). */
function keptAliveFor(port: number, localAddress: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, localAddress });
    let answeredAt = 0;
    socket.on('connect', () => socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'));
    socket.on('data', () => {
      answeredAt ||= performance.now();
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(performance.now() - answeredAt));
    setTimeout(() => socket.destroy(new Error('still open after 20 s')), 20_000);
  });
}

/** A signed-in user at another address: a browser on two kept-alive connections, and a newcomer who opens a new one for each page. */
async function users(origin: string) {
  const browser = new Agent({
    connections: 2,
    keepAliveTimeout: 120_000,
    keepAliveMaxTimeout: 120_000,
    localAddress: BROWSER_ADDRESS,
  });
  const cookie = await sessionCookie(origin, 'demo', DEMO_PASSWORD, browser);
  const url = `${origin}/api/payments?limit=50`;
  const newcomerPage = async () => {
    const agent = new Agent({ localAddress: NEWCOMER_ADDRESS });
    try {
      return await signedInGet(url, cookie, agent)();
    } finally {
      await agent.destroy();
    }
  };
  return { browser, browserPage: signedInGet(url, cookie, browser), newcomerPage };
}

describe('idle connections', () => {
  const bffs: BffProcess[] = [];
  const stops: (() => void)[] = [];
  afterAll(async () => {
    for (const stop of stops) stop();
    await Promise.all(bffs.map((bff) => bff.stop()));
  });

  it('while 25,000 half-open connections (no byte sent) are attempted from 200 addresses, a user at another address keeps getting pages (≥ 99 %, p99 ≤ 1 s)', async () => {
    // The default MAX_CONNECTIONS: the descriptor limit less 512, at most 16,384.
    const bff = await startBff();
    bffs.push(bff);
    const { browser, browserPage, newcomerPage } = await users(bff.origin);
    await paced(50, 10, browserPage);
    const idle = summarize(await paced(200, 10, browserPage));

    const started = performance.now();
    const attackers = attack(bff.port, 25_000, { request: false, earlyMs: 9_000 });
    stops.push(attackers.kill);
    let peakDescriptors = 0;
    const sampler = setInterval(() => {
      peakDescriptors = Math.max(peakDescriptors, bff.openDescriptors());
    }, 500);
    await attackers.filled;
    const filledAfterMs = performance.now() - started;
    // The last attempts are still being accepted: measure a full server.
    await sleep(1_000);
    const [samples, newcomers, probes] = await Promise.all([
      paced(200, 40, browserPage),
      paced(40, 200, newcomerPage),
      paced(16, 500, async () => ({
        ok: true,
        at: performance.now(),
        ms: 0,
        outcome: await newConnectionProbe(bff.port),
      })),
    ]);
    const during = summarize(samples);
    const newcomer = summarize(newcomers);
    // Then the attackers let go of every connection at once, in the middle of these.
    const released = paced(40, 50, browserPage);
    await sleep(1_000);
    const releasedAt = performance.now();
    attackers.stop();
    const release = summarize(await released);
    const totals = await attackers.totals;
    clearInterval(sampler);
    await browser.close();

    const probeOutcomes: Record<string, number> = {};
    for (const probe of probes) probeOutcomes[probe.outcome] = (probeOutcomes[probe.outcome] ?? 0) + 1;
    console.log(
      [
        `half-open connections: ulimit -n ${totals[0]?.fdLimit}, ${attackers.processes} attacker processes of ≤ ${attackers.perProcess}`,
        `  attempted ${sum(totals, 'attempted')} (first 25000 made in ${(filledAfterMs / 1000).toFixed(1)} s), peak held ${sum(totals, 'peakOpen')}, closed by the BFF to make room ${sum(totals, 'closedEarly')}, at the headers timeout ${sum(totals, 'closedLate')} (408: ${sum(totals, 'answered408')}); held ${JSON.stringify(totals[0]?.lateHeldMs)} ms`,
        `  BFF descriptors at most ${peakDescriptors}; stderr: ${JSON.stringify(bff.stderr().slice(0, 200))}`,
        `  user idle:     ${describeLatency(idle)}`,
        `  user attack:   ${describeLatency(during)}; slowest at ${slowest(samples, started)} after the attack began`,
        `  newcomer:      ${describeLatency(newcomer)}`,
        `  brand-new connections during the attack: ${JSON.stringify(probeOutcomes)}`,
        `  while the attackers let go of their connections (at +${((releasedAt - started) / 1000).toFixed(1)} s): ${describeLatency(release)}`,
      ].join('\n'),
    );

    // The attack filled the BFF: connections were closed to make room, long before their headers timeout.
    expect(sum(totals, 'closedEarly')).toBeGreaterThan(0);
    expect(during.successRate).toBeGreaterThanOrEqual(0.99);
    expect(during.p99).toBeLessThanOrEqual(1_000);
    expect(newcomer.successRate).toBeGreaterThanOrEqual(0.99);
    expect(newcomer.p99).toBeLessThanOrEqual(1_000);
    // Room stayed for the BFF's own sockets: no descriptor ran out, nothing failed to be accepted.
    expect(peakDescriptors).toBeLessThan(openFileLimit(bff.pid) - 256);
    expect(bff.stderr()).toBe('');
  });

  it('while 19,600 connections from 200 addresses each send one GET /healthz and sit idle, a user at another address keeps getting pages (≥ 99 %, p99 ≤ 1 s)', async () => {
    // Defaults: KEEP_ALIVE_TIMEOUT 5 s, MAX_CONNECTIONS_PER_ADDRESS 256, MAX_CONNECTIONS 16,384 here.
    const bff = await startBff();
    bffs.push(bff);
    const { browser, browserPage, newcomerPage } = await users(bff.origin);
    await paced(50, 10, browserPage);
    const [keptAliveMs, idle, idleNewcomer] = await Promise.all([
      keptAliveFor(bff.port, '127.0.0.4'),
      paced(200, 10, browserPage).then(summarize),
      paced(40, 50, newcomerPage).then(summarize),
    ]);

    const started = performance.now();
    // A keep-alive close comes at KEEP_ALIVE_TIMEOUT plus Node's 1 s of grace; earlier, it made room.
    const attackers = attack(bff.port, 19_600, { request: true, earlyMs: 5_000 });
    stops.push(attackers.kill);
    let peakDescriptors = 0;
    const sampler = setInterval(() => {
      peakDescriptors = Math.max(peakDescriptors, bff.openDescriptors());
    }, 500);
    await attackers.filled;
    const filledAfterMs = performance.now() - started;
    const [samples, newcomers] = await Promise.all([
      paced(200, 40, browserPage),
      paced(40, 200, newcomerPage),
    ]);
    const during = summarize(samples);
    const newcomer = summarize(newcomers);
    attackers.stop();
    const totals = await attackers.totals;
    clearInterval(sampler);
    await browser.close();

    const held = totals.map((each) => each.lateHeldMs);
    console.log(
      [
        `keep-alive hoard: ulimit -n ${totals[0]?.fdLimit}, ${attackers.processes} attacker processes of ≤ ${attackers.perProcess}`,
        `  attempted ${sum(totals, 'attempted')} (first 19600 made in ${(filledAfterMs / 1000).toFixed(1)} s), answered ${sum(totals, 'answered')}, peak held ${sum(totals, 'peakOpen')}; closed idle by the BFF to make room ${sum(totals, 'closedEarly')}, at the keep-alive timeout ${sum(totals, 'closedLate')}; idle held then ${JSON.stringify(held)} ms`,
        `  BFF descriptors at most ${peakDescriptors}; stderr: ${JSON.stringify(bff.stderr().slice(0, 200))}`,
        `  before the attack, a connection left idle after one request was closed after ${(keptAliveMs / 1000).toFixed(2)} s`,
        `  user idle:      ${describeLatency(idle)}`,
        `  user attack:    ${describeLatency(during)}; slowest at ${slowest(samples, started)} after the attack began`,
        `  newcomer idle:  ${describeLatency(idleNewcomer)}`,
        `  newcomer:       ${describeLatency(newcomer)}; slowest at ${slowest(newcomers, started)}`,
      ].join('\n'),
    );

    // KEEP_ALIVE_TIMEOUT (5 s) and Node's 1 s of grace, not the 65 s of before.
    expect(keptAliveMs).toBeGreaterThanOrEqual(5_000);
    expect(keptAliveMs).toBeLessThanOrEqual(6_500);
    // The hoard filled the BFF: idle connections gave way before their keep-alive timeout.
    expect(sum(totals, 'closedEarly')).toBeGreaterThan(0);
    for (const { p90 } of held) expect(p90).toBeLessThanOrEqual(6_500);
    expect(during.successRate).toBeGreaterThanOrEqual(0.99);
    expect(during.p99).toBeLessThanOrEqual(1_000);
    expect(newcomer.successRate).toBeGreaterThanOrEqual(0.99);
    // A newcomer's connection races the hoard's for the listen queue: a SYN dropped while it is full is sent again
    // after Linux's initial RTO, exactly 1 s, so a newcomer may take 1 s plus its page (a fresh-clone run measured
    // p99 1,030 ms; earlier runs 495 ms). Two drops in a row (3 s) would mean the queue never drains: that fails.
    expect(newcomer.p99).toBeLessThanOrEqual(1_500);
    expect(peakDescriptors).toBeLessThan(openFileLimit(bff.pid) - 256);
    expect(bff.stderr()).toBe('');
  });
});
