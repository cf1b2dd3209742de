/**
 * The attacker of idle-connections.test.ts: opens TCP connections to one loopback port and never sends a byte. It
 * runs as a process of its own so that its sockets count against its own descriptor limit, not the test's.
 *
 * Argument: JSON `{ port, count, durationMs, openPerSecond }`. It keeps up to `count` connections open (fewer if
 * its descriptor limit is lower), opening at most `openPerSecond`: whatever the server closes, held a while and
 * timed out or refused at once because it is full, is opened again. Prints a JSON line once its first `count`
 * attempts are made and one with the totals after `durationMs` (or on SIGTERM), then exits.
 */
import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';

interface Options {
  port: number;
  count: number;
  durationMs: number;
  openPerSecond: number;
}

/** Closed sooner than this after connecting: refused by a full server, not held and timed out. */
const REFUSED_WITHIN_MS = 1_000;
const TICK_MS = 10;
/** Descriptors left for the process itself (stdio, the event loop, module files). */
const OWN_DESCRIPTORS = 64;

const options = JSON.parse(process.argv[2] ?? '') as Options;
const fdLimit = Number(
  /^Max open files\s+(\d+)/m.exec(readFileSync('/proc/self/limits', 'utf8'))?.[1] ?? 1024,
);
const count = Math.min(options.count, fdLimit - OWN_DESCRIPTORS);

const sockets = new Set<Socket>();
const errors: Record<string, number> = {};
const heldMs: number[] = [];
let toOpen = count;
let initialAttempts = 0;
let attempted = 0;
let connecting = 0;
let open = 0;
let peakOpen = 0;
let refused = 0;
let timedOut = 0;
let answered408 = 0;
let stopping = false;

function openOne(initial: boolean): void {
  attempted += 1;
  if (initial) initialAttempts += 1;
  connecting += 1;
  let connectedAt = 0;
  const socket = connect({ host: '127.0.0.1', port: options.port });
  sockets.add(socket);
  socket.once('connect', () => {
    connecting -= 1;
    connectedAt = performance.now();
    open += 1;
    peakOpen = Math.max(peakOpen, open);
  });
  socket.once('data', (chunk: Buffer) => {
    if (chunk.toString('latin1').startsWith('HTTP/1.1 408')) answered408 += 1;
  });
  socket.on('error', (error: NodeJS.ErrnoException) => {
    const code = error.code ?? error.name;
    errors[code] = (errors[code] ?? 0) + 1;
  });
  socket.once('close', () => {
    sockets.delete(socket);
    if (connectedAt === 0) {
      connecting -= 1;
      return;
    }
    open -= 1;
    if (stopping) return;
    const held = performance.now() - connectedAt;
    if (held < REFUSED_WITHIN_MS) refused += 1;
    else {
      timedOut += 1;
      heldMs.push(held);
    }
    toOpen += 1;
  });
}

function totals(event: string) {
  heldMs.sort((a, b) => a - b);
  return {
    event,
    fdLimit,
    count,
    initialAttempts,
    attempted,
    open,
    connecting,
    peakOpen,
    refused,
    timedOut,
    answered408,
    heldMsMin: Math.round(heldMs[0] ?? 0),
    heldMsMedian: Math.round(heldMs[heldMs.length >> 1] ?? 0),
    errors,
  };
}

let reportedFilled = false;
const perTick = Math.max(1, Math.round((options.openPerSecond * TICK_MS) / 1000));
const ticker = setInterval(() => {
  for (let i = 0; i < perTick && toOpen > 0; i++) {
    toOpen -= 1;
    openOne(initialAttempts < count);
  }
  if (!reportedFilled && initialAttempts === count) {
    reportedFilled = true;
    console.log(JSON.stringify(totals('filled')));
  }
}, TICK_MS);

/** Lets go of every connection at once, prints the totals and exits: at `durationMs`, or sooner on SIGTERM. */
function finish(): void {
  if (stopping) return;
  stopping = true;
  clearInterval(ticker);
  console.log(JSON.stringify(totals('done')));
  for (const socket of sockets) socket.destroy();
  process.stdout.write('', () => process.exit(0));
}
setTimeout(finish, options.durationMs);
process.once('SIGTERM', finish);
