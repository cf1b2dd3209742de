import { useMutation } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { errorMessage, isApiError } from '../../../lib/api-error.ts';
import { formatBytes, formatCount } from '../fields/number-text.ts';
import type { ListView } from '../view/list-view.ts';
import { downloadPaymentsCsv, type ExportProgress } from './download-payments-csv.ts';

interface ExportRequest {
  view: ListView;
  /** The columns to write, in order; every column when undefined. */
  columns?: readonly string[] | undefined;
  /** The zone to write times in (`tz`), when not the company's. */
  timeZone?: string | undefined;
}

/** How an export ended without an error: saved, or cancelled by the user. */
type ExportOutcome = { saved: true; rows: number; fileName: string } | { saved: false };

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

function rowCount(rows: number): string {
  return `${formatCount(rows)} ${rows === 1 ? 'row' : 'rows'}`;
}

/** Offers a finished file for saving through a Blob URL. */
function save(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // the download has taken its copy by the next task
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/**
 * The export as a mutation: one at a time (a new one aborts the one before), the file saved when whole, and
 * cancelled on request or when the component goes. `status` is the line the button shows beside it.
 */
export function useExportPayments() {
  // Null until the file has begun: a failure before it is a refused request, not a broken file.
  const [progress, setProgress] = useState<ExportProgress | null>(null);
  const controller = useRef<AbortController | null>(null);
  useEffect(() => () => controller.current?.abort(), []);

  const mutation = useMutation({
    // A fetch that cannot start offline fails at once, as it always has, rather than waiting for the network.
    networkMode: 'always',
    mutationFn: async ({ view, columns, timeZone }: ExportRequest): Promise<ExportOutcome> => {
      controller.current?.abort();
      const own = new AbortController();
      controller.current = own;
      try {
        const onProgress = (next: ExportProgress) => {
          if (!own.signal.aborted) setProgress(next);
        };
        const file = await downloadPaymentsCsv(view, onProgress, own.signal, columns, timeZone);
        save(file.blob, file.fileName);
        return { saved: true, rows: file.rows, fileName: file.fileName };
      } catch (error) {
        if (own.signal.aborted) return { saved: false };
        throw error;
      } finally {
        if (controller.current === own) controller.current = null;
      }
    },
  });

  const { mutate } = mutation;
  const start = useCallback(
    (request: ExportRequest) => {
      setProgress(null);
      mutate(request);
    },
    [mutate],
  );
  const cancel = useCallback(() => controller.current?.abort(), []);

  const status = mutation.isPending
    ? `Exporting… ${rowCount(progress?.rows ?? 0)}, ${formatBytes(progress?.bytes ?? 0)}`
    : mutation.isError
      ? exportFailure(mutation.error, progress?.rows ?? null)
      : mutation.data === undefined
        ? ''
        : mutation.data.saved
          ? `Saved ${mutation.data.fileName}: ${rowCount(mutation.data.rows)}.`
          : 'Export cancelled.';
  // what the file saved holds, to compare with the figures of its view
  const saved =
    mutation.data?.saved && mutation.variables
      ? { rows: mutation.data.rows, view: mutation.variables.view }
      : null;
  return { running: mutation.isPending, status, saved, start, cancel };
}
