import { apiFetch } from '../../../lib/api-client.ts';
import { ApiError } from '../../../lib/api-error.ts';
import type { ListView } from '../view/list-view.ts';
import { companyHeader, filtersQuery, sortQuery } from '../view/view-request.ts';
import { CsvRecordCounter } from './csv-record-counter.ts';
import { EXPORT_FORMATS, type ExportFormat } from './export-formats.ts';

/** `attachment; filename="payments.csv"` or RFC 6266 `filename*=UTF-8''…` → the name, or a safe default. */
export function fileNameFrom(disposition: string | null, fallback = 'payments.csv'): string {
  if (!disposition) return fallback;
  const star = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(disposition);
  if (star?.[1]) {
    try {
      return decodeURIComponent(star[1].trim());
    } catch {
      // malformed encoding: try the plain form
    }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/i.exec(disposition);
  return plain?.[1]?.trim() || fallback;
}

/** The signature of a ZIP's end-of-central-directory record, which closes every whole XLSX file. */
const ZIP_END = [0x50, 0x4b, 0x05, 0x06];
/** The record is 22 bytes and its comment at most 65,535. */
const ZIP_END_MAX = 22 + 0xffff;

/**
 * Whether the bytes end as a whole ZIP does: its end record within the last 64 KB. A workbook cut anywhere
 * before it is not a file a spreadsheet can open.
 */
export function endsAsZip(chunks: readonly Uint8Array[]): boolean {
  const total = chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0);
  const tail = new Uint8Array(Math.min(total, ZIP_END_MAX));
  let at = tail.length;
  for (let i = chunks.length - 1; i >= 0 && at > 0; i--) {
    const chunk = chunks[i] as Uint8Array;
    const take = Math.min(at, chunk.byteLength);
    tail.set(chunk.subarray(chunk.byteLength - take), at - take);
    at -= take;
  }
  for (let start = tail.length - 22; start >= 0; start--) {
    if (ZIP_END.every((byte, i) => tail[start + i] === byte)) return true;
  }
  return false;
}

export interface ExportProgress {
  bytes: number;
  /** CSV data rows so far (records less the header line); null for a workbook, whose rows are compressed. */
  rows: number | null;
}

interface ExportResult extends ExportProgress {
  blob: Blob;
  fileName: string;
}

/**
 * `GET /api/payments/export.csv` or `export.xlsx` (the same query): fetched, not a plain link, because the
 * anti-forgery and company headers must travel; read as a stream so progress shows while the BFF walks the
 * upstream cursors. Times are written in `timeZone` (`tz`), which the file's header names.
 */
export async function downloadPayments(
  view: ListView,
  format: ExportFormat,
  onProgress: (progress: ExportProgress) => void,
  signal: AbortSignal,
  /** The columns to write, in order; every column when undefined. */
  columns: readonly string[] | undefined,
  /** The IANA zone to write times in: the one the user reads them in. */
  timeZone: string,
): Promise<ExportResult> {
  const query = new URLSearchParams();
  const asked = { ...filtersQuery(view), ...sortQuery(view), tz: timeZone, columns: columns?.join(',') };
  for (const [name, value] of Object.entries(asked)) if (value !== undefined) query.set(name, value);
  const { type } = EXPORT_FORMATS[format];
  const response = await apiFetch(`/api/payments/export.${format}?${query}`, {
    headers: { ...companyHeader(view.company), Accept: type },
    signal,
  });
  const fileName = fileNameFrom(response.headers.get('Content-Disposition'), `payments.${format}`);
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  const counter = format === 'csv' ? new CsvRecordCounter() : null;
  const decoder = new TextDecoder();
  let bytes = 0;
  const rows = () => (counter === null ? null : Math.max(0, counter.records - 1));
  if (response.body) {
    const reader = response.body.getReader();
    for (;;) {
      // A download the BFF could not finish (the upstream failed, it stopped) is reset, never ended cleanly:
      // the read rejects, and the rows so far are not a file to save.
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      bytes += value.byteLength;
      counter?.push(decoder.decode(value, { stream: true }));
      onProgress({ bytes, rows: rows() });
    }
  }
  if (counter === null) {
    // The stream ended cleanly, yet before the workbook's end: a proxy cut it without resetting the connection.
    if (!endsAsZip(chunks)) throw new ApiError(0, 'interrupted', 'The file ended before its end.');
    return { blob: new Blob(chunks, { type }), fileName, bytes, rows: null };
  }
  counter.push(decoder.decode());
  if (!counter.atRecordEnd) throw new ApiError(0, 'interrupted', 'The file ended in the middle of a row.');
  return { blob: new Blob(chunks, { type }), fileName, bytes, rows: Math.max(0, counter.finish() - 1) };
}
