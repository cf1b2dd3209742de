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
  /** Called once when the export ends, however it ends. */
  onEnd?(outcome: {
    end: ExportEnd;
    rows: number;
    attempts: number;
    failure?: UpstreamFailure | undefined;
  }): void;
}

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
    clearTimeout(rateCheck);
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
  // a client too slow to be worth a walk (the kernel's buffers fill fast at the start, so the first window is
  // generous, and later ones measure the client itself).
  const floor = (options.minBytesPerSecond * options.rateWindowMs) / 1000;
  const window = { waitedMs: 0, bytes: 0 };
  let handed = { at: 0, bytes: 0 };
  const windowFull = (): boolean => {
    const slow = window.bytes < floor;
    window.waitedMs = 0;
    window.bytes = 0;
    if (slow) interrupt('too_slow');
    return slow;
  };
  const armRateCheck = () => {
    if (floor <= 0) return;
    rateCheck = setTimeout(() => {
      const now = performance.now();
      window.waitedMs += now - handed.at;
      handed = { at: now, bytes: handed.bytes };
      if (!windowFull()) armRateCheck();
    }, options.rateWindowMs - window.waitedMs);
  };
  const waitForReader = (bytes: number) => {
    handed = { at: performance.now(), bytes };
    idle = setTimeout(() => interrupt('idle_timeout'), options.idleMs);
    armRateCheck();
  };
  const readerTook = () => {
    clearTimeout(idle);
    clearTimeout(rateCheck);
    window.waitedMs += performance.now() - handed.at;
    window.bytes += handed.bytes;
    handed = { at: 0, bytes: 0 };
    return floor > 0 && window.waitedMs >= options.rateWindowMs && windowFull();
  };

  return new ReadableStream<Uint8Array>(
    {
      start(c) {
        controller = c;
        waitForReader(0);
      },
      async pull(c) {
        try {
          if (readerTook()) return;
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
