/** attackers/idle-connections.ts as many processes as an attack needs: idle-connections.test.ts and `pnpm bench abuse`. */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { openFileLimit } from './bff-process.ts';

const ATTACKER = fileURLToPath(new URL('../attackers/idle-connections.ts', import.meta.url));
/** The bound on each attack; a caller ends it sooner, once its measurements are made. */
const ATTACK_MS = 30_000;
/**
 * Connections the attackers open per second, together, unless told: bounded, so that on this 2-core machine they
 * leave the BFF its cores (a remote attacker would not share them).
 */
const OPEN_PER_SECOND = 5_000;
const MAX_ATTACKERS = 8;
/** Source addresses per attacker process (127.<10 + process>.x.y): far more than one address may hold. */
const ADDRESSES_PER_ATTACKER = 100;

export interface AttackerTotals {
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
export function attack(
  port: number,
  attempts: number,
  mode: { request: boolean; earlyMs: number; openPerSecond?: number },
) {
  const { openPerSecond = OPEN_PER_SECOND, ...attackerMode } = mode;
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
      openPerSecond: openPerSecond / processes,
      addresses,
      ...attackerMode,
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

export const sum = (
  totals: AttackerTotals[],
  key: 'attempted' | 'peakOpen' | 'answered' | 'closedEarly' | 'closedLate' | 'answered408',
) => totals.reduce((all, each) => all + each[key], 0);
