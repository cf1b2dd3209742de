/** Excel reads a CSV without a byte order mark in the system's code page and garbles every non-ASCII name. */
export const UTF8_BOM = '\uFEFF';

/** A value as text: strings as they are, anything else but null as compact JSON. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * Characters a spreadsheet skips or does not show before it looks for a formula sign: white space (NBSP
 * included), control characters (NUL, C0 and C1: some readers drop them), zero-width and bidirectional
 * controls, the byte order mark.
 */
const INVISIBLE_LEAD = /^[\s\p{Cc}\u00a0\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff]*/u;
/** Signs that start a formula, in their ASCII and fullwidth forms. */
const FORMULA_SIGN = /^[=+\-@\uff1d\uff0b\uff0d\uff20]/u;
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;

/**
 * One CSV cell (RFC 4180), always quoted. A cell that a spreadsheet would evaluate, because its first visible
 * character is = + - @ (or their fullwidth forms) or because it starts with a TAB or line break, gets a leading
 * apostrophe so it shows as text (CSV formula injection); a plain number such as a refund of -500 is left alone.
 */
export function csvCell(value: unknown): string {
  let cell = cellText(value);
  if (cell === '') return '';
  const visible = cell.replace(INVISIBLE_LEAD, '');
  if (/^[\t\r\n]/.test(cell) || (FORMULA_SIGN.test(visible) && !PLAIN_NUMBER.test(cell))) cell = `'${cell}`;
  return `"${cell.replaceAll('"', '""')}"`;
}

export function csvRow(cells: readonly unknown[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}
