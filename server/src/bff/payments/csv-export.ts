import type { Payment, PaymentPage } from '@payments/shared';
import type { UpstreamFailure, UpstreamResult } from '../upstream/index.ts';

/**
 * Known columns, in the order a reader expects. `amount` stays in minor units as the API gives it, next to
 * `currency`: converting needs each currency's exponent (JPY 0, BHD 3…), and a spreadsheet can divide
 * reliably while a wrongly scaled decimal would silently misstate money.
 */
export const KNOWN_COLUMNS = [
  'id',
  'company_id',
  'created_at',
  'status',
  'amount',
  'currency',
  'description',
  'counterparty',
  'reference',
] as const;
/**
 * Fields not given a column of their own land here as JSON, so nothing is lost: those first seen after the first
 * page, and a field that is itself named `other_fields`.
 */
export const OTHER_FIELDS_COLUMN = 'other_fields';
/**
 * The file starts with a UTF-8 byte order mark. Excel, which most finance users open a CSV with, reads a file
 * without one in the system's ANSI code page, and every non-ASCII name (Müller, Société) comes out garbled. Sheets,
 * Numbers and LibreOffice skip it; a script reading the file must too (Python's `utf-8-sig`).
 */
export const UTF8_BOM = '\uFEFF';

const NEEDS_QUOTES = /[",\r\n]/;
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One CSV cell (RFC 4180). Text starting with = + - @ TAB or CR gets a leading apostrophe so spreadsheets show
 * it instead of evaluating it (CSV formula injection). Numbers are left alone: a JavaScript number's text
 * cannot hold a formula, and a refund of -500 must stay a number.
 */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  let text =
    typeof value === 'string' ? value : typeof value === 'boolean' ? String(value) : JSON.stringify(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvRow(cells: readonly unknown[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

/** Columns for the file: the known ones, then unknown fields of the first page in order of appearance. */
export function columnsFor(firstPage: readonly Payment[]): string[] {
  const columns: string[] = [...KNOWN_COLUMNS];
  const seen = new Set<string>(columns);
  for (const record of firstPage) {
    for (const key of Object.keys(record)) {
      if (!seen.has(key) && key !== OTHER_FIELDS_COLUMN) {
        seen.add(key);
        columns.push(key);
      }
    }
  }
  columns.push(OTHER_FIELDS_COLUMN);
  return columns;
}

function recordRow(record: Payment, columns: readonly string[], named: ReadonlySet<string>): string {
  const cells: unknown[] = [];
  for (const column of columns) {
    if (column !== OTHER_FIELDS_COLUMN) cells.push(record[column]);
  }
  let others: Record<string, unknown> | undefined;
  for (const [key, value] of Object.entries(record)) {
    if (!named.has(key)) {
      // Without a prototype, a key named `__proto__` is stored as a field like any other.
      others ??= Object.create(null) as Record<string, unknown>;
      others[key] = value;
    }
  }
  cells.push(others === undefined ? '' : JSON.stringify(others));
  return csvRow(cells);
}

/** Why an export stopped early; the stream errors with it so the download visibly fails. */
export class ExportInterrupted extends Error {
  override name = 'ExportInterrupted';
  readonly failure: UpstreamFailure;
  constructor(failure: UpstreamFailure) {
    super(`export interrupted: ${failure.code}`);
    this.failure = failure;
  }
}

export interface ExportStreamOptions {
  firstPage: PaymentPage;
  /** The page after `cursor`, with the same filters and company as the first. */
  fetchPage(cursor: string, signal: AbortSignal): Promise<UpstreamResult<PaymentPage>>;
  /**
   * Resets the client connection at once, when the server exposes it; returns whether it did. Without it the
   * stream errors, which the server turns into the same reset (plus an unstructured log line of its own).
   */
  resetConnection?(): boolean;
  /** Called once when the export ends, however it ends. */
  onEnd?(outcome: { rows: number; attempts: number; failure?: UpstreamFailure | undefined }): void;
}

/**
 * Whether a walk of cursors has come back to one it sent before, in constant memory (Brent's cycle detection):
 * a cursor is kept as a checkpoint, moved to the newest one after 1, 2, 4, … steps, and every new cursor is
 * compared with it. A walk that loops, over any number of cursors, is caught within about three times as many
 * pages as it took to come back the first time.
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
 * The CSV as a pull stream: the next upstream page is fetched only when the consumer has room (one page ahead
 * at most), so memory stays constant whatever the size and a slow download slows the upstream walk. A failure
 * after the first byte errors the stream, which resets the connection: a truncated file never looks complete.
 */
export function createCsvExportStream(options: ExportStreamOptions): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const abort = new AbortController();
  const columns = columnsFor(options.firstPage.data);
  // The fields that have a column: a record's own `other_fields` has none, and goes into the JSON bag.
  const named = new Set(columns.filter((column) => column !== OTHER_FIELDS_COLUMN));
  let next: string | null = options.firstPage.next_cursor;
  const loopsBack = cursorLoopGuard(next);
  let started = false;
  let rows = 0;
  let attempts = 0;
  let ended = false;
  const end = (failure?: UpstreamFailure) => {
    if (ended) return;
    ended = true;
    options.onEnd?.({ rows, attempts, failure });
  };
  const encodePage = (page: readonly Payment[], header: string) => {
    let text = header;
    for (const record of page) text += recordRow(record, columns, named);
    rows += page.length;
    return encoder.encode(text);
  };

  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!started) {
          started = true;
          controller.enqueue(encodePage(options.firstPage.data, `${UTF8_BOM}${csvRow(columns)}`));
        } else if (next !== null) {
          const result = await options.fetchPage(next, abort.signal);
          attempts += result.attempts;
          /** Ends the download as failed, visibly: the connection is reset, or else the stream errors. */
          const interrupt = (failure: UpstreamFailure) => {
            end(failure);
            // Left open after a reset: the server cancels it when it sees the socket close.
            if (!options.resetConnection?.()) controller.error(new ExportInterrupted(failure));
          };
          if (!result.ok) return interrupt(result.failure);
          const after = result.value.next_cursor;
          // A cursor seen before would walk forever: an upstream bug, reported like any bad response.
          if (after !== null && loopsBack(after))
            return interrupt({
              code: 'upstream_bad_response',
              status: 502,
              detail: 'the payments service sent a cursor it had sent before',
            });
          next = after;
          controller.enqueue(encodePage(result.value.data, ''));
        }
        if (next === null) {
          end();
          controller.close();
        }
      },
      cancel() {
        abort.abort();
        end({
          code: 'upstream_unavailable',
          status: 502,
          detail: 'the download was cancelled',
          aborted: true,
        });
      },
    },
    { highWaterMark: 1 },
  );
}
