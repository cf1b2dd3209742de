import type { UpstreamFailure } from '../../../upstream/index.ts';
import type { RowsEnd, ViewRow } from '../walk/ordered-walk.ts';
import { csvRow, UTF8_BOM } from './csv-format.ts';
import { type Interpretation, recordCells } from './export-columns.ts';

/** How a download ended; anything but `complete` left the file short, and the connection was reset. */
type ExportEnd = 'complete' | 'cancelled' | 'upstream_failure' | 'idle_timeout' | 'max_duration';

export interface ExportStreamOptions extends Interpretation {
  /** The file's columns (see columnsFor). */
  columns: readonly string[];
  /** The view's rows in list order, batch by batch; the first batch was read before the answer began. */
  first: readonly ViewRow[];
  rows: AsyncIterator<ViewRow[], RowsEnd>;
  /** A group's file: each row's company is written as its company_id where the record has none. */
  group: boolean;
  /** A download whose client takes nothing for this long is ended. */
  idleMs: number;
  /** No download runs longer than this. */
  maxDurationMs: number;
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
 * The CSV as a pull stream: the next batch of rows is asked for only when the consumer has room, so memory stays
 * bounded whatever the size and a slow download slows the walk.
 */
export function createCsvExportStream(options: ExportStreamOptions): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let started = false;
  let rows = 0;
  let attempts = 0;
  let ended = false;
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  const end = (how: ExportEnd, failure?: UpstreamFailure) => {
    if (ended) return;
    ended = true;
    clearTimeout(idle);
    clearTimeout(tooLong);
    void options.rows.return?.({ ok: true, attempts: 0 });
    options.onEnd?.({ end: how, rows, attempts, failure });
  };
  /** Ends the download as failed, visibly: a short file must never look complete. */
  const interrupt = (how: ExportEnd, failure?: UpstreamFailure) => {
    if (ended) return;
    end(how, failure);
    if (!options.resetConnection())
      controller?.error(new Error(`export interrupted: ${failure?.code ?? how}`));
  };
  // The reader pulls only when the socket has taken what it had: no pull for idleMs, while no upstream page is
  // awaited, is a client that reads nothing.
  let idle: NodeJS.Timeout | undefined;
  const waitForReader = () => {
    idle = setTimeout(() => interrupt('idle_timeout'), options.idleMs);
  };
  const tooLong = setTimeout(() => interrupt('max_duration'), options.maxDurationMs);
  const encode = (batch: readonly ViewRow[], header: string) => {
    let out = header;
    for (const { record, company } of batch)
      out += csvRow(recordCells(record, options.columns, options, options.group ? company : undefined));
    rows += batch.length;
    return encoder.encode(out);
  };

  return new ReadableStream<Uint8Array>(
    {
      start(c) {
        controller = c;
        waitForReader();
      },
      async pull(c) {
        try {
          await write(c);
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

  async function write(c: ReadableStreamDefaultController<Uint8Array>) {
    clearTimeout(idle);
    if (!started) {
      started = true;
      c.enqueue(encode(options.first, `${UTF8_BOM}${csvRow(options.columns)}`));
      waitForReader();
      return;
    }
    const next = await options.rows.next();
    if (ended) return;
    if (next.done) {
      attempts += next.value.attempts;
      if (!next.value.ok) return interrupt('upstream_failure', next.value.failure);
      end('complete');
      c.close();
      return;
    }
    c.enqueue(encode(next.value, ''));
    waitForReader();
  }
}
