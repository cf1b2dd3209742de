import { useCallback, useEffect, useRef, useState } from 'react';
import { bff } from '../../../lib/api-client.ts';
import { errorMessage } from '../../../lib/api-error.ts';
import type { ListView } from '../utils/list-search-params.ts';
import { companyHeader } from './get-payments.ts';

/** The export's query: the filters of the view, absent ones left out. */
export function exportQuery(view: Pick<ListView, 'status' | 'dateFrom'>) {
  return { status: view.status ?? undefined, date_from: view.dateFrom ?? undefined };
}

/**
 * Counts CSV records (line ends outside quotes) across chunk boundaries. A quoted field may hold line breaks,
 * so counting raw newlines would overstate the rows of a description that spans lines.
 */
export class CsvRecordCounter {
  records = 0;
  private inQuotes = false;
  private lastWasNewline = true;

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

interface ExportProgress {
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
async function downloadPaymentsCsv(
  view: ListView,
  onProgress: (progress: ExportProgress) => void,
  signal: AbortSignal,
): Promise<ExportResult> {
  const response = await bff.api.payments['export.csv'].$get(
    { query: exportQuery(view) },
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
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      bytes += value.byteLength;
      counter.push(decoder.decode(value, { stream: true }));
      onProgress({ bytes, rows: Math.max(0, counter.records - 1) });
    }
  }
  counter.push(decoder.decode());
  const rows = Math.max(0, counter.finish() - 1);
  return { blob: new Blob(chunks, { type: 'text/csv' }), fileName, bytes, rows };
}

type ExportState =
  | { phase: 'idle' }
  | { phase: 'running'; progress: ExportProgress }
  | { phase: 'done'; rows: number; bytes: number; fileName: string }
  | { phase: 'cancelled' }
  | { phase: 'failed'; message: string };

/** Runs one export at a time, saves the file through a Blob URL, and can be cancelled. */
export function useExportPayments() {
  const [state, setState] = useState<ExportState>({ phase: 'idle' });
  const controller = useRef<AbortController | null>(null);

  useEffect(() => () => controller.current?.abort(), []);

  const start = useCallback(async (view: ListView) => {
    controller.current?.abort();
    const own = new AbortController();
    controller.current = own;
    setState({ phase: 'running', progress: { bytes: 0, rows: 0 } });
    try {
      const result = await downloadPaymentsCsv(
        view,
        (progress) => setState({ phase: 'running', progress }),
        own.signal,
      );
      const url = URL.createObjectURL(result.blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = result.fileName;
      document.body.append(link);
      link.click();
      link.remove();
      // the download has taken its copy by the next task
      setTimeout(() => URL.revokeObjectURL(url), 0);
      setState({ phase: 'done', rows: result.rows, bytes: result.bytes, fileName: result.fileName });
    } catch (error) {
      if (own.signal.aborted) setState({ phase: 'cancelled' });
      else setState({ phase: 'failed', message: errorMessage(error) });
    } finally {
      if (controller.current === own) controller.current = null;
    }
  }, []);

  const cancel = useCallback(() => controller.current?.abort(), []);
  return { state, start, cancel };
}
