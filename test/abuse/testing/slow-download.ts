import { readFileSync } from 'node:fs';
import { connect } from 'node:net';

/** What one read takes from the socket at most: the reader never holds more than this in its own memory. */
const READ_BYTES = 1024;

export interface SlowDownload {
  /** The status and headers, once they arrived. */
  head: Promise<{ status: number; headers: Record<string, string> }>;
  /** Bytes taken from the socket so far, headers included. */
  consumed(): number;
  /** The client's side of the connection (its local port), for reading the kernel's queues. */
  localPort(): number;
  close(): void;
}

/**
 * A `GET` over a raw loopback connection whose body is read at `bytesPerSecond`, at most 1 KB at a time: what
 * is not read stays in the kernel (the client's receive queue, then the server's send queue), as with a slow
 * network. A non-200 answer is read at once and the connection closed.
 */
export function slowDownload({
  port,
  path,
  headers,
  bytesPerSecond,
}: {
  port: number;
  path: string;
  headers: Record<string, string>;
  bytesPerSecond: number;
}): SlowDownload {
  let consumed = 0;
  let received = '';
  let parsed = false;
  const head = Promise.withResolvers<{ status: number; headers: Record<string, string> }>();
  const socket = connect({
    host: '127.0.0.1',
    port,
    onread: {
      buffer: Buffer.alloc(READ_BYTES),
      callback: (bytes: number, buffer: Uint8Array) => {
        consumed += bytes;
        if (parsed) return false; // one read per tick: paused until the ticker resumes it
        received += Buffer.from(buffer.subarray(0, bytes)).toString('latin1');
        const end = received.indexOf('\r\n\r\n');
        if (end < 0) return true;
        parsed = true;
        const [statusLine = '', ...lines] = received.slice(0, end).split('\r\n');
        const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine)?.[1] ?? 0);
        const fields: Record<string, string> = {};
        for (const line of lines) {
          const colon = line.indexOf(':');
          fields[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
        }
        head.resolve({ status, headers: fields });
        if (status !== 200) socket.destroy();
        return false;
      },
    },
  });
  const request = [`GET ${path} HTTP/1.1`, `Host: 127.0.0.1:${port}`];
  for (const [name, value] of Object.entries(headers)) request.push(`${name}: ${value}`);
  socket.once('connect', () => socket.write(`${request.join('\r\n')}\r\n\r\n`));
  const ticker = setInterval(() => socket.resume(), (1000 * READ_BYTES) / bytesPerSecond);
  socket.on('error', (error) => head.reject(error));
  socket.once('close', () => {
    clearInterval(ticker);
    head.reject(new Error('closed before the headers arrived'));
  });
  return {
    head: head.promise,
    consumed: () => consumed,
    localPort: () => socket.localPort ?? 0,
    close: () => socket.destroy(),
  };
}

/**
 * Bytes the kernel holds for the loopback connection between `clientPort` and `serverPort`: the server's send
 * queue (written, not yet acknowledged or not yet sent) and the client's receive queue (arrived, not yet read),
 * from /proc/net/tcp.
 */
export function kernelQueuedBytes(
  clientPort: number,
  serverPort: number,
): { sendQueue: number; receiveQueue: number } {
  let sendQueue = 0;
  let receiveQueue = 0;
  for (const line of readFileSync('/proc/net/tcp', 'utf8').split('\n').slice(1)) {
    const fields = line.trim().split(/\s+/);
    const local = Number.parseInt(fields[1]?.split(':')[1] ?? '', 16);
    const remote = Number.parseInt(fields[2]?.split(':')[1] ?? '', 16);
    const [tx = '0', rx = '0'] = (fields[4] ?? '').split(':');
    if (local === serverPort && remote === clientPort) sendQueue += Number.parseInt(tx, 16);
    if (local === clientPort && remote === serverPort) receiveQueue += Number.parseInt(rx, 16);
  }
  return { sendQueue, receiveQueue };
}
