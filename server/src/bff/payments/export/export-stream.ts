import type { Payment, PaymentPage } from '@payments/shared';
import type { UpstreamFailure, UpstreamResult } from '../../../upstream/index.ts';
import { csvRow, UTF8_BOM } from './csv-format.ts';
import { columnsFor, type Interpretation, recordCells } from './export-columns.ts';

/** How a download ended; anything but `complete` left the file short, and the connection was reset. */
export type ExportEnd = 'complete' | 'cancelled' | 'upstream_failure' | 'idle_timeout' | 'max_duration';

export interface ExportStreamOptions extends Interpretation {
  firstPage: PaymentPage;
  /** The columns the user sees, in order (see columnsFor); every column when undefined. */
  chosenColumns?: readonly string[] | undefined;
  /** The rows to write (a date_to's); every row when undefined. Columns come from the whole first page. */
  keep?: ((record: Payment) => boolean) | undefined;
  /** A group's list: the company each row is from, written as its company_id where the record has none. */
  companyOf?: ((record: Payment) => string | undefined) | undefined;
  /** A download whose client takes nothing for this long is ended. */
  idleMs: number;
  /** No download runs longer than this. */
  maxDurationMs: number;
  /** The page after `cursor`, with the same filters and company as the first. */
  fetchPage(cursor: string, signal: AbortSignal): Promise<UpstreamResult<PaymentPage>>;
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
 * Whether a walk of cursors has come back to one it sent before, in constant memory (Brent's cycle detection):
 * a looping upstream would otherwise make an endless file.
 */
function cursorLoopGuard(first: string | null): (next: string) => boolean {
  let checkpoint = first;
  let steps = 0;
  let power = 1;
  return (next) => {
    if (next === checkpoint) return true;
    steps += 1;
    if (steps === power) {
      checkpoint = next;
      power *= 2;
      steps = 0;
    }
    return false;
  };
}

/**
 * The CSV as a pull stream: the next upstream page is fetched only when the consumer has room, so memory stays
 * constant whatever the size and a slow download slows the upstream walk.
 */
export function createCsvExportStream(options: ExportStreamOptions): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const abort = new AbortController();
  const columns = columnsFor(options.firstPage.data, options.chosenColumns);
  let next: string | null = options.firstPage.next_cursor;
  const loopsBack = cursorLoopGuard(next);
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
    abort.abort();
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
  const encodePage = (page: readonly Payment[], header: string) => {
    let out = header;
    for (const record of page) {
      if (options.keep && !options.keep(record)) continue;
      out += csvRow(recordCells(record, columns, options, options.companyOf?.(record)));
      rows += 1;
    }
    return encoder.encode(out);
  };

  return new ReadableStream<Uint8Array>(
    {
      start(c) {
        controller = c;
        waitForReader();
      },
      async pull(c) {
        clearTimeout(idle);
        if (!started) {
          started = true;
          c.enqueue(encodePage(options.firstPage.data, `${UTF8_BOM}${csvRow(columns)}`));
        } else if (next !== null) {
          const result = await options.fetchPage(next, abort.signal);
          attempts += result.attempts;
          if (ended) return;
          if (!result.ok) return interrupt('upstream_failure', result.failure);
          const after = result.value.next_cursor;
          if (after !== null && loopsBack(after))
            return interrupt('upstream_failure', {
              code: 'upstream_bad_response',
              status: 502,
              detail: 'the payments service sent a cursor it had sent before',
            });
          next = after;
          c.enqueue(encodePage(result.value.data, ''));
        }
        if (next === null) {
          end('complete');
          c.close();
        } else waitForReader();
      },
      cancel() {
        end('cancelled');
      },
    },
    { highWaterMark: 1 },
  );
}
