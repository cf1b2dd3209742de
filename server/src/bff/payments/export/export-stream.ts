import { setTimeout as sleep } from 'node:timers/promises';
import type { UpstreamFailure } from '../../../upstream/index.ts';
import type { RowsEnd } from '../walk/ordered-walk.ts';

/** How a download ended; anything but `complete` left the file short, and the connection was reset. */
type ExportEnd = 'complete' | 'cancelled' | 'upstream_failure' | 'idle_timeout' | 'max_duration' | 'too_slow';

/** A file's bytes, made from the walk's rows as they are asked for (see csv-body.ts, xlsx-body.ts). */
export interface ExportBody {
  /** The next bytes of the file; done, with how the walk ended, once the file is whole or the walk failed. */
  next(): Promise<IteratorResult<Uint8Array, RowsEnd>>;
  /** Rows written so far. */
  readonly rows: number;
  /** Ends the walk before the file is whole, freeing what the body holds. */
  stop(): void;
}

export interface ExportStreamOptions {
  body: ExportBody;
  /** A download whose client takes nothing for this long is ended. */
  idleMs: number;
  /** No download runs longer than this. */
  maxDurationMs: number;
  /**
   * A download whose client takes fewer bytes a second than this, over `rateWindowMs` spent waiting for it, is
   * ended (0: no floor). Time spent waiting for the upstream is not counted against the client.
   */
  minBytesPerSecond: number;
  rateWindowMs: number;
  /**
   * Resets the client connection at once, where the server exposes it, and says whether it did; otherwise the
   * stream errors, which the server turns into the same reset. Either way a short file never looks complete.
   */
  resetConnection(): boolean;
  /**
   * Bytes handed to the connection that the client has not taken yet (Node's buffer and the kernel's send queue);
   * undefined where that cannot be known. The next page is made only once this is at most AHEAD_BYTES.
   */
  unsent?(): Promise<number | undefined>;
  /** Called once when the export ends, however it ends. */
  onEnd?(outcome: {
    end: ExportEnd;
    rows: number;
    attempts: number;
    failure?: UpstreamFailure | undefined;
  }): void;
}

/**
 * How far a download may run ahead of what its client has taken: about two pages of CSV. Without it the kernel's
 * send buffer, which Linux grows to megabytes, takes every page the walk makes; the walk would run that far ahead
 * of a slow reader and, the buffer never empty, the reader's pace could not be judged.
 */
const AHEAD_BYTES = 64 * 1024;
/** How often a download waiting for its client looks again at what the client has taken. */
const TAKEN_POLL_MS = 25;

/**
 * A file as a pull stream: the body makes more only when the consumer has room, so memory stays bounded whatever
 * the size and a slow download slows the walk; a client that reads nothing, or too little, is ended.
 */
export function createExportStream(options: ExportStreamOptions): ReadableStream<Uint8Array> {
  const { body } = options;
  let attempts = 0;
  let ended = false;
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  let idle: NodeJS.Timeout | undefined;
  let rateCheck: NodeJS.Timeout | undefined;
  const end = (how: ExportEnd, failure?: UpstreamFailure) => {
    if (ended) return;
    ended = true;
    clearTimeout(idle);
    clearRateCheck();
    clearTimeout(tooLong);
    body.stop();
    options.onEnd?.({ end: how, rows: body.rows, attempts, failure });
  };
  /** Ends the download as failed, visibly: a short file must never look complete. */
  const interrupt = (how: ExportEnd, failure?: UpstreamFailure) => {
    if (ended) return;
    end(how, failure);
    if (!options.resetConnection())
      controller?.error(new Error(`export interrupted: ${failure?.code ?? how}`));
  };
  const tooLong = setTimeout(() => interrupt('max_duration'), options.maxDurationMs);

  // The reader pulls only when the socket has taken what it had. The time from handing it bytes to its next pull
  // is the reader's: no pull for idleMs is a client that reads nothing; too few bytes over a window of its time is
  // a client too slow to be worth a walk. Where what the connection still holds is known, a window counts the
  // bytes the client took in it; elsewhere those the socket took (the kernel's buffers fill fast at the start, so
  // the first window is generous, and later ones measure the client itself).
  const floor = (options.minBytesPerSecond * options.rateWindowMs) / 1000;
  /** Bytes of the file made so far; less what the connection still holds, what the client has taken. */
  let made = 0;
  const window = { waitedMs: 0, bytes: 0, takenBefore: 0 };
  let handed = { at: 0, bytes: 0 };
  const windowFull = async (): Promise<boolean> => {
    const unsent = await options.unsent?.();
    const taken = unsent === undefined ? undefined : made - unsent;
    const bytes = taken === undefined ? window.bytes : taken - window.takenBefore;
    window.waitedMs = 0;
    window.bytes = 0;
    window.takenBefore = taken ?? 0;
    const slow = bytes < floor;
    if (slow) interrupt('too_slow');
    return slow;
  };
  /** Bumped whenever the rate check is cleared: a check that fired meanwhile does not arm another. */
  let rateArming = 0;
  const clearRateCheck = () => {
    clearTimeout(rateCheck);
    rateArming += 1;
  };
  const armRateCheck = () => {
    if (floor <= 0) return;
    const arming = rateArming;
    rateCheck = setTimeout(async () => {
      const now = performance.now();
      window.waitedMs += now - handed.at;
      handed = { at: now, bytes: handed.bytes };
      if (!(await windowFull()) && !ended && arming === rateArming) armRateCheck();
    }, options.rateWindowMs - window.waitedMs);
  };
  const waitForReader = (bytes: number) => {
    handed = { at: performance.now(), bytes };
    idle = setTimeout(() => interrupt('idle_timeout'), options.idleMs);
    armRateCheck();
  };
  const readerTook = async () => {
    clearTimeout(idle);
    clearRateCheck();
    window.waitedMs += performance.now() - handed.at;
    window.bytes += handed.bytes;
    handed = { at: 0, bytes: 0 };
    return floor > 0 && window.waitedMs >= options.rateWindowMs && (await windowFull());
  };

  return new ReadableStream<Uint8Array>(
    {
      start(c) {
        controller = c;
        waitForReader(0);
      },
      async pull(c) {
        try {
          // The socket has taken the last page; the client may not have: the walk waits for it, and the time
          // is the reader's (its idle and rate timers run on).
          while (!ended && made > AHEAD_BYTES && ((await options.unsent?.()) ?? 0) > AHEAD_BYTES)
            await sleep(TAKEN_POLL_MS);
          if (ended) return;
          if (await readerTook()) return;
          const next = await body.next();
          if (ended) return;
          if (next.done) {
            attempts += next.value.attempts;
            if (!next.value.ok) return interrupt('upstream_failure', next.value.failure);
            end('complete');
            c.close();
            return;
          }
          c.enqueue(next.value);
          made += next.value.byteLength;
          waitForReader(next.value.byteLength);
        } catch (error) {
          // Whatever went wrong, the download ends visibly and gives its places back.
          interrupt('upstream_failure', {
            code: 'internal_error',
            status: 502,
            detail: error instanceof Error ? error.name : 'export failed',
          });
        }
      },
      cancel() {
        end('cancelled');
      },
    },
    { highWaterMark: 1 },
  );
}
