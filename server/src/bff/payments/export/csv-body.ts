import type { RowsEnd, ViewRow } from '../walk/ordered-walk.ts';
import { csvRow, UTF8_BOM } from './csv-format.ts';
import { headerOf, type Interpretation, recordCells } from './export-columns.ts';
import type { ExportBody } from './export-stream.ts';
import type { XlsxCell } from './xlsx-cells.ts';

/** What a file is made of: its columns, and the view's rows in list order, batch by batch. */
export interface FileRows extends Interpretation {
  /** The file's columns (see columnsFor). */
  columns: readonly string[];
  /** The first batch, read before the answer began. */
  first: readonly ViewRow[];
  rows: AsyncIterator<ViewRow[], RowsEnd>;
  /** A group's file: each row's company is written as its company_id where the record has none. */
  group: boolean;
  /** The figures of the rows written, once the walk has ended: the XLSX's second sheet (the CSV has none). */
  figures?: () => readonly (readonly XlsxCell[])[];
}

/** The CSV: a byte order mark and the header with the first batch, then one chunk per batch of rows. */
export function csvBody(file: FileRows): ExportBody {
  const encoder = new TextEncoder();
  let rows = 0;
  let started = false;
  const encode = (batch: readonly ViewRow[], header: string) => {
    let out = header;
    for (const { record, company } of batch)
      out += csvRow(recordCells(record, file.columns, file, file.group ? company : undefined));
    rows += batch.length;
    return encoder.encode(out);
  };
  return {
    get rows() {
      return rows;
    },
    async next() {
      if (!started) {
        started = true;
        return {
          done: false,
          value: encode(file.first, `${UTF8_BOM}${csvRow(headerOf(file.columns, file))}`),
        };
      }
      const next = await file.rows.next();
      return next.done ? next : { done: false, value: encode(next.value, '') };
    },
    stop() {
      void file.rows.return?.({ ok: true, attempts: 0 });
    },
  };
}
