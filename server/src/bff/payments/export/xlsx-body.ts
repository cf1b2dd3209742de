import { once } from 'node:events';
import { PassThrough, type Readable } from 'node:stream';
import { ZipFile } from 'yazl';
import type { RowsEnd, ViewRow } from '../walk/ordered-walk.ts';
import type { FileRows } from './csv-body.ts';
import { headerOf } from './export-columns.ts';
import type { ExportBody } from './export-stream.ts';
import { FIGURES_HEADER } from './figures-sheet.ts';
import {
  columnName,
  contentTypesXml,
  EXCEL_MAX_ROWS,
  ROOT_RELS,
  rowXml,
  STYLE,
  sheetEnd,
  sheetStart,
  stylesXml,
  workbookRelsXml,
  workbookXml,
} from './spreadsheet-ml.ts';
import { columnWidths, type XlsxCell, xlsxCells } from './xlsx-cells.ts';

/**
 * What a sheet's entry may hold unread before the walk waits: under a page of rows. The zip's own streams hold
 * Node's default 64 KB each beyond it, about a megabyte of rows in all.
 */
const SHEET_BUFFER_BYTES = 16 * 1024;
/** The sheet's name; more rows than a sheet holds go on to `payments 2`, `payments 3` … */
const SHEET_NAME = 'payments';
/** The sheet of the figures, after the payments. */
const FIGURES_SHEET_NAME = 'figures';
/** Every entry gets this time, so the same rows make the same bytes. */
const ENTRY_TIME = new Date(Date.UTC(2000, 0, 1));

/**
 * The XLSX: SpreadsheetML written row by row into a zip (yazl, compressed by Node's zlib off the main thread) as
 * the walk goes, the walk asked for more only when the zip has taken what it was given. The workbook, its styles
 * and its content types come last, once the rows (and the currencies met) are known.
 */
export function xlsxBody(file: FileRows, rowsPerSheet = EXCEL_MAX_ROWS - 1): ExportBody {
  const zip = new ZipFile();
  const output = zip.outputStream as Readable;
  const chunks = output[Symbol.asyncIterator]();
  const entry = { mtime: ENTRY_TIME, forceDosTimestamp: true };
  const formats = new Map<string, number>();
  const styleOf = (format: string | undefined) => {
    if (format === undefined) return 0;
    let style = formats.get(format);
    if (style === undefined) {
      style = STYLE.firstNumberFormat + formats.size;
      formats.set(format, style);
    }
    return style;
  };
  const cellsOf = ({ record, company }: ViewRow) =>
    xlsxCells(record, file.columns, file, file.group ? company : undefined);
  const firstCells = file.first.map(cellsOf);
  const header = headerOf(file.columns, file);
  const start = sheetStart(header, columnWidths(header, firstCells));
  const letters = file.columns.map((_, i) => columnName(i));
  /** Each sheet's last row so far (its header is row 1). */
  const sheets: number[] = [];
  let sheet: PassThrough | undefined;
  let rows = 0;
  let end: RowsEnd | undefined;
  const stopped = new AbortController();

  const openSheet = (): PassThrough => {
    sheet = new PassThrough({ highWaterMark: SHEET_BUFFER_BYTES });
    sheets.push(1);
    zip.addReadStream(sheet, `xl/worksheets/sheet${sheets.length}.xml`, entry);
    return sheet;
  };
  const closeSheet = (xml: string) =>
    sheet?.end(`${xml}${sheetEnd(file.columns.length, sheets.at(-1) ?? 1)}`);
  /** Writes a batch of rows; false when the sheet's buffer is full and the walk should wait. */
  const write = (batch: readonly (readonly XlsxCell[])[]): boolean => {
    let xml = sheet === undefined ? start : '';
    let into = sheet ?? openSheet();
    for (const cells of batch) {
      let row = sheets.at(-1) ?? 1;
      if (row > rowsPerSheet) {
        closeSheet(xml);
        into = openSheet();
        xml = start;
        row = 1;
      }
      row += 1;
      sheets[sheets.length - 1] = row;
      xml += rowXml(row, cells, letters, styleOf);
    }
    rows += batch.length;
    return into.write(xml);
  };
  const finish = () => {
    closeSheet('');
    const names: { name: string; rows: number; columns?: number }[] = sheets.map((count, i) => ({
      name: i ? `${SHEET_NAME} ${i + 1}` : SHEET_NAME,
      rows: count,
    }));
    if (file.figures) {
      // The screen's figures of the same rows, on a sheet of their own after the payments.
      const cells = file.figures();
      const header = [...FIGURES_HEADER];
      const figureLetters = header.map((_, i) => columnName(i));
      let xml = sheetStart(header, columnWidths(header, cells));
      for (const [i, row] of cells.entries()) xml += rowXml(i + 2, row, figureLetters, styleOf);
      xml += sheetEnd(header.length, cells.length + 1);
      names.push({ name: FIGURES_SHEET_NAME, rows: cells.length + 1, columns: header.length });
      zip.addBuffer(Buffer.from(xml), `xl/worksheets/sheet${names.length}.xml`, entry);
    }
    const parts: [string, string][] = [
      ['xl/styles.xml', stylesXml([...formats.keys()])],
      ['xl/workbook.xml', workbookXml(names, file.columns.length)],
      ['xl/_rels/workbook.xml.rels', workbookRelsXml(names.length)],
      ['_rels/.rels', ROOT_RELS],
      ['[Content_Types].xml', contentTypesXml(names.length)],
    ];
    for (const [path, xml] of parts) zip.addBuffer(Buffer.from(xml), path, entry);
    zip.end();
  };

  const feed = async () => {
    let room = write(firstCells);
    for (;;) {
      if (!room && sheet) await once(sheet, 'drain', { signal: stopped.signal });
      const next = await file.rows.next();
      if (stopped.signal.aborted) return;
      if (next.done) {
        end = next.value;
        if (end.ok) finish();
        else output.destroy();
        return;
      }
      room = write(next.value.map(cellsOf));
    }
  };
  let feeding: Promise<void> | undefined;
  // A zip that cannot be made is a file that cannot end: the output stops, and the walk with it.
  zip.on('error', () => output.destroy());

  return {
    get rows() {
      return rows;
    },
    async next() {
      feeding ??= feed().catch(() => {
        output.destroy();
      });
      try {
        const chunk = await chunks.next();
        if (!chunk.done) return { done: false, value: chunk.value as Buffer };
      } catch {
        // Destroyed: the walk failed (its end says so), or the zip could not be made, and then the feed stops too.
        if (end === undefined) stopped.abort();
      }
      await feeding;
      return { done: true, value: end ?? FILE_FAILED };
    },
    stop() {
      stopped.abort();
      void file.rows.return?.({ ok: true, attempts: 0 });
      sheet?.destroy();
      output.destroy();
    },
  };
}

/** A file whose zip could not be finished: it ends like a walk that failed, reset rather than short. */
const FILE_FAILED: RowsEnd = {
  ok: false,
  attempts: 0,
  failure: { code: 'internal_error', status: 503, detail: 'the file could not be written' },
};
