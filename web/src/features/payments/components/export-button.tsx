import { formatBytes, formatCount } from '../../../lib/format.ts';
import { useExportPayments } from '../api/export-payments.ts';
import type { PaymentsSession } from '../api/get-payments.ts';

/** Downloads the CSV of the current filters, with live progress, cancel, and the outcome announced. */
export function ExportButton({ session }: { session: PaymentsSession }) {
  const { state, start, cancel } = useExportPayments();
  const running = state.phase === 'running';
  return (
    <div className="export">
      {running ? (
        <button type="button" className="button" onClick={cancel}>
          Cancel export
        </button>
      ) : (
        <button type="button" className="button" onClick={() => void start(session)}>
          Export CSV
        </button>
      )}
      <span className="export__status" role="status" aria-live="polite" data-testid="export-status">
        {state.phase === 'running' &&
          `Exporting… ${rowCount(state.progress.rows)}, ${formatBytes(state.progress.bytes)}`}
        {state.phase === 'done' && `Saved ${state.fileName}: ${rowCount(state.rows)}.`}
        {state.phase === 'cancelled' && 'Export cancelled.'}
        {state.phase === 'failed' && `Export failed: ${state.message}`}
      </span>
    </div>
  );
}

function rowCount(rows: number): string {
  return `${formatCount(rows)} ${rows === 1 ? 'row' : 'rows'}`;
}
