import { bff } from '../../../lib/api-client.ts';
import { ApiError } from '../../../lib/api-error.ts';
import type { ListView } from '../view/list-view.ts';
import { companyHeader, filtersQuery } from '../view/view-request.ts';

/**
 * Counts CSV records (line ends outside quotes) across chunk boundaries. A quoted field may hold line breaks,
 * so counting raw newlines would overstate the rows of a description that spans lines.
 */
export class CsvRecordCounter {
  records = 0;
  private inQuotes = false;
  private lastWasNewline = true;

  /** Whether the text so far ends with a whole record: the BFF ends every record, the last one included, with a line end. */
  get atRecordEnd(): boolean {
    return this.lastWasNewline && !this.inQuotes;
  }

  push(text: string): void {
    for (let i = 0; i < text.length; i++) {
      const ch = text.charCodeAt(i);
      if (ch === 34 /* " */) this.inQuotes = !this.inQuotes;
      else if (ch === 10 /* \n */ && !this.inQuotes) {
        this.records++;
        this.lastWasNewline = true;
        continue;
      }
      this.lastWasNewline = false;
    }
  }

  /** Records seen once the stream ended (a last line without its line end still counts). */
  finish(): number {
    return this.records + (this.lastWasNewline ? 0 : 1);
  }
}

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

export interface ExportProgress {
  bytes: number;
  /** Data rows so far: records minus the header line. */
  rows: number;
}

interface ExportResult extends ExportProgress {
  blob: Blob;
  fileName: string;
}

/**
 * `GET /api/payments/export.csv`: fetched (not a plain link) because the anti-forgery and company headers
 * must travel; read as a stream so progress shows while the BFF walks the upstream cursors.
 */
export async function downloadPaymentsCsv(
  view: ListView,
  onProgress: (progress: ExportProgress) => void,
  signal: AbortSignal,
  /** The columns to write, in order; every column when undefined. */
  columns?: readonly string[],
  /** The zone to write times in (`tz`), when it is not the company's. */
  timeZone?: string,
): Promise<ExportResult> {
  const query = { ...filtersQuery(view), columns: columns?.join(',') };
  const response = await bff.api.payments['export.csv'].$get(
    // `tz` is new to the export route: a BFF without it refuses it (400 invalid_parameter), so it is sent only
    // when times are shown in another zone than the company's
    { query: timeZone === undefined ? query : Object.assign(query, { tz: timeZone }) },
    { headers: { ...companyHeader(view.company), Accept: 'text/csv' }, init: { signal } },
  );
  const fileName = fileNameFrom(response.headers.get('Content-Disposition'));
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  const counter = new CsvRecordCounter();
  const decoder = new TextDecoder();
  let bytes = 0;
  if (response.body) {
    const reader = response.body.getReader();
    for (;;) {
      // A download the BFF could not finish (the upstream failed, it stopped) is reset, never ended cleanly:
      // the read rejects, and the rows so far are not a file to save.
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      bytes += value.byteLength;
      counter.push(decoder.decode(value, { stream: true }));
      onProgress({ bytes, rows: Math.max(0, counter.records - 1) });
    }
  }
  counter.push(decoder.decode());
  // The stream ended cleanly, yet in the middle of a row: a proxy cut it without resetting the connection.
  if (!counter.atRecordEnd) throw new ApiError(0, 'interrupted', 'The file ended in the middle of a row.');
  const rows = Math.max(0, counter.finish() - 1);
  return { blob: new Blob(chunks, { type: 'text/csv' }), fileName, bytes, rows };
}
