/**
 * The attacker of idle-connections.test.ts: opens TCP connections to one loopback port, from a pool of loopback
 * source addresses, and either never sends a byte (`request: false`, half-open) or sends one complete
 * `GET /healthz`, reads the answer and then sits idle on the kept-alive connection (`request: true`). It runs
 * as a process of its own so that its sockets count against its own descriptor limit, not the test's.
 *
 * Argument: JSON `{ port, count, durationMs, openPerSecond, addresses, request, earlyMs }`. It keeps up to
 * `count` connections open (fewer if its descriptor limit is lower), opening at most `openPerSecond`: whatever
 * the server closes is opened again. A close counts as early when it comes sooner than `earlyMs` after the
 * connection fell idle (its answer, or its connect when half-open): the server closed it to make room, not for
 * its timeout. Prints a JSON line once its first `count` attempts are made and one with the totals after
 * `durationMs` (or on SIGTERM), then exits.
 */
import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';

interface Options {
  port: number;
  count: number;
  durationMs: number;
  openPerSecond: number;
  addresses: string[];
  request: boolean;
  earlyMs: number;
}

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
/** How long connections closed late had been idle: their timeout at work. */
const lateHeldMs: number[] = [];
let toOpen = count;
let initialAttempts = 0;
let attempted = 0;
let open = 0;
let peakOpen = 0;
let answered = 0;
let closedEarly = 0;
let closedLate = 0;
let answered408 = 0;
let stopping = false;

function openOne(initial: boolean): void {
  attempted += 1;
  if (initial) initialAttempts += 1;
  let idleSince = 0;
  let connected = false;
  const localAddress = options.addresses[attempted % options.addresses.length];
  const socket = connect({ host: '127.0.0.1', port: options.port, localAddress });
  sockets.add(socket);
  socket.once('connect', () => {
    connected = true;
    open += 1;
    peakOpen = Math.max(peakOpen, open);
    if (options.request) socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    else idleSince = performance.now();
  });
  let received = '';
  socket.on('data', (chunk: Buffer) => {
    received += chunk.toString('latin1');
    if (received.startsWith('HTTP/1.1 408')) answered408 += 1;
    else if (idleSince === 0 && received.includes('"ok"}')) {
      answered += 1;
      idleSince = performance.now();
    }
  });
  socket.on('error', (error: NodeJS.ErrnoException) => {
    const code = error.code ?? error.name;
    errors[code] = (errors[code] ?? 0) + 1;
  });
  socket.once('close', () => {
    sockets.delete(socket);
    if (connected) open -= 1;
    if (stopping) return;
    // Closed while its request was answered, or before it connected: counted in errors only.
    if (idleSince > 0) {
      const held = performance.now() - idleSince;
      if (held < options.earlyMs) closedEarly += 1;
      else {
        closedLate += 1;
        lateHeldMs.push(held);
      }
    }
    toOpen += 1;
  });
}

function totals(event: string) {
  const sorted = [...lateHeldMs].sort((a, b) => a - b);
  const at = (q: number) =>
    Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0);
  return {
    event,
    fdLimit,
    count,
    initialAttempts,
    attempted,
    open,
    peakOpen,
    answered,
    closedEarly,
    closedLate,
    answered408,
    lateHeldMs: { p10: at(0.1), p50: at(0.5), p90: at(0.9), max: at(1) },
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
