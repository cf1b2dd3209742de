import { useCallback, useEffect, useRef, useState } from 'react';
import { errorMessage, isApiError } from '../../../lib/api-error.ts';
import { formatCount } from '../fields/number-text.ts';
import type { ListView } from '../view/list-view.ts';
import { downloadPaymentsCsv, type ExportProgress } from './download-payments-csv.ts';

type ExportState =
  | { phase: 'idle' }
  | { phase: 'running'; progress: ExportProgress }
  | { phase: 'done'; rows: number; bytes: number; fileName: string }
  | { phase: 'cancelled' }
  | { phase: 'failed'; message: string };

/**
 * Why an export failed, for the user: after how many rows when the file broke off, and when to try again when
 * the BFF turned it away.
 */
function exportFailure(error: unknown, rows: number | null): string {
  if (isApiError(error) && error.code === 'rate_limited')
    return `Export not started: ${error.detail}.${error.retryAfterSeconds ? ` Try again in ${error.retryAfterSeconds} s.` : ''}`;
  const reason = isApiError(error)
    ? errorMessage(error)
    : 'the connection broke before the file was complete.';
  return rows === null
    ? `Export failed: ${reason}`
    : `Export failed after ${formatCount(rows)} ${rows === 1 ? 'row' : 'rows'}: ${reason} Nothing was saved.`;
}

/** Runs one export at a time, saves the file through a Blob URL, and can be cancelled. */
export function useExportPayments() {
  const [state, setState] = useState<ExportState>({ phase: 'idle' });
  const controller = useRef<AbortController | null>(null);

  useEffect(() => () => controller.current?.abort(), []);

  const start = useCallback(async (view: ListView, columns?: readonly string[]) => {
    controller.current?.abort();
    const own = new AbortController();
    controller.current = own;
    setState({ phase: 'running', progress: { bytes: 0, rows: 0 } });
    // Null until the file has begun: a failure before it is a refused request, not a broken file.
    let rows: number | null = null;
    try {
      const result = await downloadPaymentsCsv(
        view,
        (progress) => {
          rows = progress.rows;
          setState({ phase: 'running', progress });
        },
        own.signal,
        columns,
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
      else setState({ phase: 'failed', message: exportFailure(error, rows) });
    } finally {
      if (controller.current === own) controller.current = null;
    }
  }, []);

  const cancel = useCallback(() => controller.current?.abort(), []);
  return { state, start, cancel };
}
