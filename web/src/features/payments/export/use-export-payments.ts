import { useMutation } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { errorMessage, isApiError } from '../../../lib/api-error.ts';
import { formatBytes, formatCount } from '../fields/number-text.ts';
import type { ListView } from '../view/list-view.ts';
import { downloadPayments, type ExportProgress } from './download-payments.ts';
import type { ExportFormat } from './export-formats.ts';

interface ExportRequest {
  view: ListView;
  format: ExportFormat;
  /** The columns to write, in order; every column when undefined. */
  columns?: readonly string[] | undefined;
  /** The IANA zone to write times in (`tz`): the one the user reads them in. */
  timeZone: string;
  /** How many rows the file will hold, when known (the summary's complete count of the same view); else null. */
  expectedRows?: number | null | undefined;
}

/** How an export ended without an error: saved, or cancelled by the user. */
type ExportOutcome = { saved: true; fileName: string; size: string; rows: number | null } | { saved: false };

/**
 * Why an export failed, for the user: after how many rows when the file broke off, and when to try again when
 * the BFF turned it away.
 */
function exportFailure(error: unknown, progress: ExportProgress | null): string {
  if (isApiError(error) && error.code === 'rate_limited')
    return `Export not started: ${error.detail}.${error.retryAfterSeconds ? ` Try again in ${error.retryAfterSeconds} s.` : ''}`;
  const reason = isApiError(error)
    ? errorMessage(error)
    : 'the connection broke before the file was complete.';
  return progress === null
    ? `Export failed: ${reason}`
    : `Export failed after ${amount(progress)}: ${reason} Nothing was saved.`;
}

function rowCount(rows: number): string {
  return `${formatCount(rows)} ${rows === 1 ? 'row' : 'rows'}`;
}

/**
 * An export under way: its rows so far "of N" when N is known (a CSV), or the N it will hold (a workbook, whose
 * rows are compressed as they come: only its bytes can be told), and its size so far.
 */
export function exportingText(rows: number | null, bytes: number, expected: number | null): string {
  const size = formatBytes(bytes);
  if (rows === null)
    return expected === null ? `Exporting… ${size}` : `Exporting ${rowCount(expected)}… ${size}`;
  if (expected === null) return `Exporting… ${rowCount(rows)}, ${size}`;
  return `Exporting… ${formatCount(rows)} of ${rowCount(expected)}, ${size}`;
}

/** How much of a file there is: its rows for a CSV, its size for a workbook (whose rows are compressed). */
function amount({ rows, bytes }: ExportProgress): string {
  return rows === null ? formatBytes(bytes) : rowCount(rows);
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
    mutationFn: async ({ view, format, columns, timeZone }: ExportRequest): Promise<ExportOutcome> => {
      controller.current?.abort();
      const own = new AbortController();
      controller.current = own;
      try {
        const onProgress = (next: ExportProgress) => {
          if (!own.signal.aborted) setProgress(next);
        };
        const file = await downloadPayments(view, format, onProgress, own.signal, columns, timeZone);
        save(file.blob, file.fileName);
        return { saved: true, fileName: file.fileName, size: amount(file), rows: file.rows };
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

  const rows = progress?.rows ?? (mutation.variables?.format === 'xlsx' ? null : 0);
  const status = mutation.isPending
    ? exportingText(rows, progress?.bytes ?? 0, mutation.variables?.expectedRows ?? null)
    : mutation.isError
      ? exportFailure(mutation.error, progress)
      : mutation.data === undefined
        ? ''
        : mutation.data.saved
          ? `Saved ${mutation.data.fileName}: ${mutation.data.size}.`
          : 'Export cancelled.';
  // what the file saved holds (the rows of a CSV), to compare with the figures of its view
  const saved =
    mutation.data?.saved && mutation.data.rows !== null && mutation.variables
      ? { rows: mutation.data.rows, view: mutation.variables.view }
      : null;
  return { running: mutation.isPending, status, saved, start, cancel };
}
