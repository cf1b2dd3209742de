import { readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';

/** What identifies a connection in the kernel's table: the server's port and the client's address and port. */
export interface ConnectionEnds {
  localPort?: number | undefined;
  remoteAddress?: string | undefined;
  remotePort?: number | undefined;
}

/** The longest pause between readings: a download waits no longer than this to learn its client took more. */
const MAX_GAP_MS = 200;

export interface SendQueueReaderOptions {
  /** The kernel's TCP tables; Linux's by default. */
  files?: readonly string[];
  read?: (file: string) => Promise<string>;
}

/**
 * Bytes the kernel holds for a connection in its send queue: written by the server, not yet acknowledged by the
 * client. Node exposes neither SIOCOUTQ nor SO_SNDBUF for TCP, and without them a download runs ahead of a slow
 * reader by as much as the kernel lets the send buffer grow (megabytes); so they are read from /proc/net/tcp and
 * tcp6 (the tx_queue column). Each answer comes from a reading that began after it was asked for, so what was
 * written before the ask is in it; every connection asking meanwhile shares that reading, and a table of many
 * connections is read less often (up to MAX_GAP_MS apart, so that reading takes a tenth of the time). Undefined where there is no
 * such table (not Linux): a download then waits for Node's own buffer only.
 */
export function createSendQueueReader(options: SendQueueReaderOptions = {}) {
  const files = options.files ?? ['/proc/net/tcp', '/proc/net/tcp6'];
  const read = options.read ?? ((file: string) => readFile(file, 'latin1'));
  /** The reading that callers asking now will share: it begins once the one under way has ended. */
  let next: Promise<Map<string, number> | undefined> | undefined;
  let underWay: Promise<unknown> = Promise.resolve();
  let lastTookMs = 0;

  const load = async (): Promise<Map<string, number> | undefined> => {
    const started = performance.now();
    const queues = new Map<string, number>();
    let found = false;
    for (const file of files) {
      let text: string;
      try {
        text = await read(file);
      } catch {
        continue;
      }
      found = true;
      for (const line of text.split('\n').slice(1)) {
        const fields = line.trim().split(/\s+/);
        const local = fields[1]?.split(':');
        const remote = fields[2]?.split(':');
        const tx = fields[4]?.split(':')[0];
        if (!local?.[1] || !remote?.[0] || !remote[1] || tx === undefined) continue;
        const key = keyOf(
          Number.parseInt(local[1], 16),
          addressOfHex(remote[0]),
          Number.parseInt(remote[1], 16),
        );
        queues.set(key, Number.parseInt(tx, 16));
      }
    }
    lastTookMs = performance.now() - started;
    return found ? queues : undefined;
  };

  const nextReading = () => {
    if (next) return next;
    const reading = underWay.then(async () => {
      if (lastTookMs > 0) await sleep(Math.min(MAX_GAP_MS, 9 * lastTookMs));
      // From here on, whoever asks needs a reading that begins later.
      next = undefined;
      return load();
    });
    next = reading;
    underWay = reading.catch(() => undefined);
    return reading;
  };

  return {
    /** The connection's send queue in bytes; 0 once it is gone from the table; undefined if it cannot be known. */
    async queued(ends: ConnectionEnds): Promise<number | undefined> {
      const queues = await nextReading();
      if (!queues || ends.localPort === undefined || ends.remotePort === undefined) return undefined;
      return queues.get(keyOf(ends.localPort, normalAddress(ends.remoteAddress ?? ''), ends.remotePort)) ?? 0;
    },
  };
}

export type SendQueueReader = ReturnType<typeof createSendQueueReader>;

const keyOf = (localPort: number, remoteAddress: string, remotePort: number) =>
  `${localPort} ${remoteAddress} ${remotePort}`;

/**
 * An address as /proc/net/tcp{,6} writes it (the bytes of each 32-bit word in host order, little-endian here), as
 * normalAddress writes it: dotted IPv4 (an IPv4-mapped IPv6 address too), or 8 groups of 4 lowercase hex digits.
 */
export function addressOfHex(hex: string): string {
  const bytes: number[] = [];
  for (let word = 0; word < hex.length; word += 8)
    for (let i = 6; i >= 0; i -= 2) bytes.push(Number.parseInt(hex.slice(word + i, word + i + 2), 16));
  if (bytes.length === 4) return bytes.join('.');
  const mapped = bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff;
  if (mapped) return bytes.slice(12).join('.');
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2)
    groups.push((((bytes[i] ?? 0) << 8) | (bytes[i + 1] ?? 0)).toString(16).padStart(4, '0'));
  return groups.join(':');
}

/** A socket's remoteAddress in addressOfHex's form. */
export function normalAddress(address: string): string {
  const v4 = /^(?:::ffff:)?(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (v4?.[1]) return v4[1];
  const [head = '', tail] = address.toLowerCase().split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const missing = tail === undefined ? 0 : 8 - left.length - right.length;
  return [...left, ...Array.from({ length: missing }, () => '0'), ...right]
    .map((group) => group.padStart(4, '0'))
    .join(':');
}
