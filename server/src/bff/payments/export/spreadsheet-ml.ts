/**
 * The parts of an XLSX file (SpreadsheetML, ECMA-376) that a streamed export writes: worksheets row by row, then
 * the workbook, its styles and the package's content types once the rows are known.
 */
import type { XlsxCell } from './xlsx-cells.ts';

const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const RELATIONSHIPS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PACKAGE_RELATIONSHIPS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const SPREADSHEET = 'application/vnd.openxmlformats-officedocument.spreadsheetml';

/** The rows Excel shows on one sheet, its header included. */
export const EXCEL_MAX_ROWS = 1_048_576;
/** How Excel shows a date-time cell. */
const DATE_TIME_FORMAT = 'yyyy-mm-dd hh:mm:ss';
/** Cell styles: the workbook's default, the header, date-times; number formats follow (see stylesXml). */
export const STYLE = { header: 1, dateTime: 2, firstNumberFormat: 3 } as const;

/** `A`, `B`, … `Z`, `AA`, … for a 0-based column index. */
export function columnName(index: number): string {
  let name = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26))
    name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

// Characters XML 1.0 cannot hold, and CR (which an XML reader would turn into LF), are written as SpreadsheetML's
// `_xHHHH_`; so a `_` that starts such a sequence in the text itself is written `_x005F_`.
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters XML cannot hold are the point
const NEEDS_ESCAPE = /[&<>"\r\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|_x[0-9A-Fa-f]{4}_/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: as above
const ESCAPED = /[&<>"\r\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|_(?=x[0-9A-Fa-f]{4}_)/g;
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

/** Text as XML character data (or an attribute value) that a spreadsheet reads back as exactly this text. */
function escapeText(text: string): string {
  if (!NEEDS_ESCAPE.test(text)) return text;
  return text.replace(
    ESCAPED,
    (c) => ENTITIES[c] ?? `_x${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}_`,
  );
}

/** One cell; `style` is the number format's style for a number. An empty cell is not written. */
function cellXml(ref: string, cell: XlsxCell, numberStyle: number): string {
  switch (cell.kind) {
    case 'empty':
      return '';
    case 'text': {
      const space = /^\s|\s$/.test(cell.text) ? ' xml:space="preserve"' : '';
      return `<c r="${ref}" t="inlineStr"><is><t${space}>${escapeText(cell.text)}</t></is></c>`;
    }
    case 'number':
      return `<c r="${ref}"${numberStyle ? ` s="${numberStyle}"` : ''}><v>${cell.value}</v></c>`;
    case 'date':
      return `<c r="${ref}" s="${STYLE.dateTime}"><v>${cell.serial}</v></c>`;
  }
}

/** A row of cells; `styleOf` gives the style of a number's format. */
export function rowXml(
  row: number,
  cells: readonly XlsxCell[],
  letters: readonly string[],
  styleOf: (format: string | undefined) => number,
): string {
  let xml = `<row r="${row}">`;
  for (let i = 0; i < cells.length; i++) {
    const cell = cells[i] as XlsxCell;
    xml += cellXml(`${letters[i]}${row}`, cell, cell.kind === 'number' ? styleOf(cell.format) : 0);
  }
  return `${xml}</row>`;
}

/** A sheet's start: the header row frozen, the columns' widths, and the header itself. */
export function sheetStart(header: readonly string[], widths: readonly number[]): string {
  const cols = widths.map((w, i) => `<col min="${i + 1}" max="${i + 1}" width="${w}" customWidth="1"/>`);
  const cells = header.map((name, i) => {
    return `<c r="${columnName(i)}1" t="inlineStr" s="${STYLE.header}"><is><t>${escapeText(name)}</t></is></c>`;
  });
  return (
    `${XML}<worksheet xmlns="${MAIN}" xmlns:r="${RELATIONSHIPS}"><sheetViews><sheetView workbookViewId="0">` +
    '<pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/>' +
    '<selection pane="bottomLeft" activeCell="A2" sqref="A2"/></sheetView></sheetViews>' +
    `<sheetFormatPr defaultRowHeight="15"/><cols>${cols.join('')}</cols>` +
    `<sheetData><row r="1">${cells.join('')}</row>`
  );
}

/** The range a sheet's autofilter covers: the header and every row under it. */
function filterRange(columns: number, rows: number): string {
  return `A1:${columnName(columns - 1)}${rows}`;
}

/** A sheet's end, with the autofilter over its header and rows. */
export function sheetEnd(columns: number, rows: number): string {
  return `</sheetData><autoFilter ref="${filterRange(columns, rows)}"/></worksheet>`;
}

/** The workbook: its sheets in order, each with its filter's hidden name (which Excel expects beside it). */
export function workbookXml(
  sheets: readonly { name: string; rows: number; columns?: number }[],
  columns: number,
): string {
  const list = sheets.map(
    (s, i) => `<sheet name="${escapeText(s.name)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`,
  );
  const filters = sheets.map((s, i) => {
    const [from, to] = filterRange(s.columns ?? columns, s.rows).split(':') as [string, string];
    const absolute = (ref: string) => ref.replace(/^([A-Z]+)(\d+)$/, '$$$1$$$2');
    return `<definedName name="_xlnm._FilterDatabase" localSheetId="${i}" hidden="1">'${escapeText(s.name)}'!${absolute(from)}:${absolute(to)}</definedName>`;
  });
  return (
    `${XML}<workbook xmlns="${MAIN}" xmlns:r="${RELATIONSHIPS}"><bookViews><workbookView/></bookViews>` +
    `<sheets>${list.join('')}</sheets><definedNames>${filters.join('')}</definedNames></workbook>`
  );
}

/** Styles: a bold header, date-times, and each number format in `formats` (style STYLE.firstNumberFormat + i). */
export function stylesXml(formats: readonly string[]): string {
  const codes = [DATE_TIME_FORMAT, ...formats];
  const numFmts = codes.map((code, i) => `<numFmt numFmtId="${164 + i}" formatCode="${escapeText(code)}"/>`);
  const xf = (numFmtId: number, fontId = 0) =>
    `<xf numFmtId="${numFmtId}" fontId="${fontId}" fillId="0" borderId="0" xfId="0"${numFmtId ? ' applyNumberFormat="1"' : ''}${fontId ? ' applyFont="1"' : ''}/>`;
  const xfs = [xf(0), xf(0, 1), ...codes.map((_, i) => xf(164 + i))];
  return (
    `${XML}<styleSheet xmlns="${MAIN}"><numFmts count="${numFmts.length}">${numFmts.join('')}</numFmts>` +
    '<fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts>' +
    '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
    '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
    '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
    `<cellXfs count="${xfs.length}">${xfs.join('')}</cellXfs>` +
    '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>'
  );
}

/** The workbook's relationships: its sheets (rId1…), then its styles. */
export function workbookRelsXml(sheets: number): string {
  const rel = (id: number, type: string, target: string) =>
    `<Relationship Id="rId${id}" Type="${RELATIONSHIPS}/${type}" Target="${target}"/>`;
  const list = Array.from({ length: sheets }, (_, i) =>
    rel(i + 1, 'worksheet', `worksheets/sheet${i + 1}.xml`),
  );
  return `${XML}<Relationships xmlns="${PACKAGE_RELATIONSHIPS}">${list.join('')}${rel(sheets + 1, 'styles', 'styles.xml')}</Relationships>`;
}

/** The package's root relationships: where the workbook is. */
export const ROOT_RELS = `${XML}<Relationships xmlns="${PACKAGE_RELATIONSHIPS}"><Relationship Id="rId1" Type="${RELATIONSHIPS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`;

/** The content type of every part. */
export function contentTypesXml(sheets: number): string {
  const part = (name: string, type: string) =>
    `<Override PartName="${name}" ContentType="${SPREADSHEET}.${type}+xml"/>`;
  const list = Array.from({ length: sheets }, (_, i) =>
    part(`/xl/worksheets/sheet${i + 1}.xml`, 'worksheet'),
  );
  return (
    `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
    '<Default Extension="xml" ContentType="application/xml"/>' +
    `${part('/xl/workbook.xml', 'sheet.main')}${list.join('')}${part('/xl/styles.xml', 'styles')}</Types>`
  );
}
