import { useExportPayments } from '../api/export-payments.ts';
import type { ListView } from '../utils/list-search-params.ts';
import { formatBytes, formatCount } from '../utils/number-text.ts';

/** Downloads the CSV of the current filters, with live progress, cancel, and the outcome announced. */
export function ExportButton({ view }: { view: ListView }) {
  const { state, start, cancel } = useExportPayments();
  const running = state.phase === 'running';
  return (
    <div className="export">
      {running ? (
        <button type="button" className="button" onClick={cancel}>
          Cancel export
        </button>
      ) : (
        <button type="button" className="button" onClick={() => void start(view)}>
          Export CSV
        </button>
      )}
      <span className="export__status" role="status" aria-live="polite" data-testid="export-status">
        {state.phase === 'running' &&
          `Exporting… ${rowCount(state.progress.rows)}, ${formatBytes(state.progress.bytes)}`}
        {state.phase === 'done' && `Saved ${state.fileName}: ${rowCount(state.rows)}.`}
        {state.phase === 'cancelled' && 'Export cancelled.'}
        {state.phase === 'failed' && state.message}
      </span>
    </div>
  );
}

function rowCount(rows: number): string {
  return `${formatCount(rows)} ${rows === 1 ? 'row' : 'rows'}`;
}
