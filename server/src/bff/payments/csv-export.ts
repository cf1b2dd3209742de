import {
  type AmountUnit,
  instantOf,
  isoInZone,
  majorAmount,
  type Payment,
  type PaymentPage,
} from '@payments/shared';
import type { UpstreamFailure, UpstreamResult } from '../../upstream/index.ts';

/**
 * The columns a reader expects first. `amount` is the exact decimal in major units beside its `currency` (empty
 * when the upstream's value cannot be read as money), `amount_raw` the value as the upstream sent it; `created_at`
 * is ISO 8601 with the configured zone's offset and `created_at_utc` the same instant in UTC (the raw text when it
 * is no date-time).
 */
export const KNOWN_COLUMNS = [
  'id',
  'company_id',
  'created_at',
  'created_at_utc',
  'status',
  'amount',
  'currency',
  'amount_raw',
  'description',
  'counterparty',
  'reference',
] as const;
/** The upstream fields the known columns are made from. */
const INTERPRETED_FIELDS = new Set([
  'id',
  'company_id',
  'created_at',
  'status',
  'amount',
  'currency',
  'description',
  'counterparty',
  'reference',
]);
/**
 * Fields not given a column of their own land here as JSON, so nothing is lost: those first seen after the first
 * page, and a field that is itself named `other_fields`.
 */
export const OTHER_FIELDS_COLUMN = 'other_fields';
/** Excel reads a CSV without a byte order mark in the system's code page and garbles every non-ASCII name. */
export const UTF8_BOM = '\uFEFF';

/** A value as text: strings as they are, anything else but null as compact JSON. */
function text(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * Characters a spreadsheet skips or does not show before it looks for a formula sign: white space (NBSP
 * included), zero-width and bidirectional controls, the byte order mark.
 */
const INVISIBLE_LEAD = /^[\s\u00a0\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff]*/u;
/** Signs that start a formula, in their ASCII and fullwidth forms. */
const FORMULA_SIGN = /^[=+\-@\uff1d\uff0b\uff0d\uff20]/u;
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;

/**
 * One CSV cell (RFC 4180), always quoted. A cell that a spreadsheet would evaluate, because its first visible
 * character is = + - @ (or their fullwidth forms) or because it starts with a TAB or line break, gets a leading
 * apostrophe so it shows as text (CSV formula injection); a plain number such as a refund of -500 is left alone.
 */
export function csvCell(value: unknown): string {
  let cell = text(value);
  if (cell === '') return '';
  const visible = cell.replace(INVISIBLE_LEAD, '');
  if (/^[\t\r\n]/.test(cell) || (FORMULA_SIGN.test(visible) && !PLAIN_NUMBER.test(cell))) cell = `'${cell}`;
  return `"${cell.replaceAll('"', '""')}"`;
}

export function csvRow(cells: readonly unknown[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

/** The dashboard's column for a group row's company name; in the file, the company's id. */
const COMPANY_VIEW_COLUMN = '@company';
/** A chosen column and the columns that go with it in the file. */
const COMPANIONS: Record<string, readonly string[]> = {
  amount: ['amount', 'currency', 'amount_raw'],
  created_at: ['created_at', 'created_at_utc'],
  [COMPANY_VIEW_COLUMN]: ['company_id'],
};

/**
 * Columns for the file. With `chosen` (the columns the user sees, in order): the payment id, then those, each
 * with its companions. Without (all columns): the known ones, then fields of the first page that have none, in
 * order of appearance, then `other_fields` only when the first page's records differ in their fields (an upstream
 * whose records vary may bring a field on a later page that has no column of its own; one that sends the same
 * fields every time gets no empty column).
 */
export function columnsFor(firstPage: readonly Payment[], chosen?: readonly string[]): string[] {
  if (chosen !== undefined) {
    const columns = new Set<string>(['id']);
    for (const id of chosen) for (const column of COMPANIONS[id] ?? [id]) columns.add(column);
    return [...columns];
  }
  const columns: string[] = [...KNOWN_COLUMNS];
  const seen = new Set<string>([...columns, ...INTERPRETED_FIELDS, OTHER_FIELDS_COLUMN]);
  const shapes = new Set<string>();
  for (const record of firstPage) {
    const keys = Object.keys(record);
    shapes.add(keys.toSorted().join('\u0000'));
    for (const key of keys) {
      if (!seen.has(key)) {
        seen.add(key);
        columns.push(key);
      }
    }
  }
  if (shapes.size > 1 || firstPage.some((record) => Object.hasOwn(record, OTHER_FIELDS_COLUMN)))
    columns.push(OTHER_FIELDS_COLUMN);
  return columns;
}

/**
 * The download's file name says what it holds: company (and group), status, range, e.g.
 * `payments_acme-eu_group_COMPLETED_2026-01-01_to_2026-01-31.csv`; without a range, the day it was made.
 * Only characters every file system and spreadsheet takes.
 */
export function exportFileName(what: {
  company: string;
  group: boolean;
  status?: string | undefined;
  dateFrom?: string | undefined;
  dateTo?: string | undefined;
  today: string;
}): string {
  const day = (dateTime: string) => dateTime.slice(0, 10);
  const range =
    what.dateFrom && what.dateTo
      ? `${day(what.dateFrom)}_to_${day(what.dateTo)}`
      : what.dateFrom
        ? `${day(what.dateFrom)}_to_${what.today}`
        : what.dateTo
          ? `until_${day(what.dateTo)}`
          : what.today;
  const parts = ['payments', what.company, what.group ? 'group' : '', what.status ?? '', range];
  return `${parts
    .filter(Boolean)
    .map((part) => part.replace(/[^A-Za-z0-9._-]+/g, '-'))
    .join('_')}.csv`;
}

export interface Interpretation {
  timeZone: string;
  amountUnit: AmountUnit;
}

/** The cells of one record, in `columns` order. */
export function recordCells(
  record: Payment,
  columns: readonly string[],
  how: Interpretation,
  company?: string,
): unknown[] {
  const instant = instantOf(record.created_at, how.timeZone);
  const derived: Record<(typeof KNOWN_COLUMNS)[number], unknown> = {
    id: record.id,
    company_id: record.company_id ?? company,
    created_at: instant === null ? record.created_at : isoInZone(instant, how.timeZone),
    created_at_utc: instant === null ? '' : new Date(instant).toISOString(),
    status: record.status,
    amount: majorAmount(record.amount, record.currency, how.amountUnit),
    currency: record.currency,
    amount_raw: record.amount,
    description: record.description,
    counterparty: record.counterparty,
    reference: record.reference,
  };
  const cells: unknown[] = [];
  const named = new Set<string>(INTERPRETED_FIELDS);
  for (const column of columns) {
    if (column === OTHER_FIELDS_COLUMN) continue;
    named.add(column);
    cells.push(Object.hasOwn(derived, column) ? derived[column as keyof typeof derived] : record[column]);
  }
  if (!columns.includes(OTHER_FIELDS_COLUMN)) return cells;
  let others: Record<string, unknown> | undefined;
  for (const [key, value] of Object.entries(record)) {
    if (!named.has(key)) {
      // Without a prototype, a key named `__proto__` is stored as a field like any other.
      others ??= Object.create(null) as Record<string, unknown>;
      others[key] = value;
    }
  }
  cells.push(others);
  return cells;
}

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
