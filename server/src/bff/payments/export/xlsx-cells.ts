import { currencyExponent, instantOf, type Payment } from '@payments/shared';
import { cellText } from './csv-format.ts';
import { type Interpretation, recordCells } from './export-columns.ts';

/**
 * A cell of the workbook. Text is always a string cell, never a formula; a number keeps the exact decimal text it
 * was made from (the file holds that text, and the spreadsheet reads it); a date is Excel's serial day number.
 */
export type XlsxCell =
  | { kind: 'empty' }
  | { kind: 'text'; text: string }
  | { kind: 'number'; value: string; format?: string }
  | { kind: 'date'; serial: number };

/** What Excel holds in one cell at most; the CSV has the whole text. */
const MAX_TEXT = 32_767;
/** Digits a spreadsheet's number (a binary double) holds exactly: an amount with more stays text. */
const EXACT_DIGITS = 15;
/** Columns that are text whatever the upstream sent: ids are names, not quantities. */
const TEXT_COLUMNS = new Set([
  'id',
  'company_id',
  'company_name',
  'status',
  'currency',
  'description',
  'counterparty',
  'reference',
  'other_fields',
]);
const EMPTY: XlsxCell = { kind: 'empty' };
const DAY_MS = 86_400_000;
/** Excel's day 0 is 1899-12-30 (it counts a 29 February 1900 that never was); serials before March 1900 differ. */
const EXCEL_EPOCH_MS = Date.UTC(1899, 11, 30);
const FIRST_EXCEL_MS = Date.UTC(1900, 2, 1);
const LAST_EXCEL_MS = Date.UTC(10_000, 0, 1);
/** The wall time that isoInZone writes, to the millisecond. */
const WALL_TIME = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{3})?)/;

function text(value: unknown): XlsxCell {
  const content = cellText(value);
  if (content === '') return EMPTY;
  return { kind: 'text', text: content.length > MAX_TEXT ? content.slice(0, MAX_TEXT) : content };
}

/** A time as Excel's serial day number, or null outside the days Excel can show (1900-03-01 to 9999-12-31). */
function serialOf(wallMs: number): number | null {
  if (!(wallMs >= FIRST_EXCEL_MS && wallMs < LAST_EXCEL_MS)) return null;
  return (wallMs - EXCEL_EPOCH_MS) / DAY_MS;
}

function date(wallMs: number, otherwise: unknown): XlsxCell {
  const serial = serialOf(wallMs);
  return serial === null ? text(otherwise) : { kind: 'date', serial };
}

function significantDigits(decimal: string): number {
  return decimal.replace(/[-.]/g, '').replace(/^0+/, '').length;
}

/**
 * The amount as a number from the CSV's exact decimal, formatted with the currency's digits (or more, when the
 * upstream sent more: none is hidden) and its code; text when a spreadsheet could not hold it exactly.
 */
export function money(decimal: string, currency: unknown): XlsxCell {
  if (significantDigits(decimal) > EXACT_DIGITS) return text(decimal);
  const exponent = currencyExponent(currency);
  const digits = Math.max(exponent ?? 0, decimal.split('.')[1]?.length ?? 0);
  const pattern = digits === 0 ? '#,##0' : `#,##0.${'0'.repeat(digits)}`;
  return { kind: 'number', value: decimal, format: exponent === null ? pattern : `${pattern} "${currency}"` };
}

function plain(value: unknown): XlsxCell {
  if (typeof value === 'number' && Number.isFinite(value)) return { kind: 'number', value: String(value) };
  return text(value);
}

/**
 * The cells of one record, in `columns` order: the CSV's cells (recordCells), typed. `created_at` is its wall time
 * in the display zone and `created_at_utc` the instant in UTC, both as date-times; `amount` a number; the
 * raw amount a number only beside an amount that could be read, text otherwise.
 */
export function xlsxCells(
  record: Payment,
  columns: readonly string[],
  how: Interpretation,
  company?: string,
): XlsxCell[] {
  const values = recordCells(record, columns, how, company);
  const instant = instantOf(record.created_at, how.timeZone);
  let amountRead = true;
  const amountAt = columns.indexOf('amount');
  if (amountAt >= 0) amountRead = values[amountAt] !== null;
  return columns.map((column, i) => {
    const value = values[i];
    if (TEXT_COLUMNS.has(column)) return text(value);
    switch (column) {
      case 'created_at': {
        const wall = instant === null ? null : WALL_TIME.exec(value as string)?.[1];
        return wall ? date(Date.parse(`${wall}Z`), value) : text(value);
      }
      case 'created_at_utc':
        return instant === null ? EMPTY : date(instant, value);
      case 'amount':
        return typeof value === 'string' ? money(value, record.currency) : EMPTY;
      case 'amount_raw':
        return amountRead ? plain(value) : text(value);
      default:
        return plain(value);
    }
  });
}

/** About how many characters a cell shows. */
function shownLength(cell: XlsxCell | undefined): number {
  switch (cell?.kind) {
    case 'text':
      return Math.max(...cell.text.split('\n').map((line) => line.length));
    case 'number': {
      const whole = cell.value.replace(/^-/, '').split('.')[0]?.length ?? 0;
      // ` EUR` after the number
      const code = cell.format?.endsWith('"') ? 4 : 0;
      return cell.value.length + Math.floor((whole - 1) / 3) + code;
    }
    case 'date':
      return 'yyyy-mm-dd hh:mm:ss'.length;
    default:
      return 0;
  }
}

/** Column widths (in characters) that fit the header and the given rows, within 8 to 60. */
export function columnWidths(header: readonly string[], rows: readonly (readonly XlsxCell[])[]): number[] {
  return header.map((name, i) => {
    let widest = name.length;
    for (const row of rows) widest = Math.max(widest, shownLength(row[i]));
    return Math.min(Math.max(widest + 2, 8), 60);
  });
}
