import { useId, useState } from 'react';
import { loadColumnVisibility } from '../fields/column-preferences.ts';
import { formatBytes, formatCount } from '../fields/number-text.ts';
import type { ListView } from '../view/list-view.ts';
import { visibleExportColumns } from './export-columns.ts';
import { useExportPayments } from './use-export-payments.ts';

/**
 * Downloads the CSV of the current filters, with the columns the table shows (or all of them), live progress,
 * cancel, and the outcome announced.
 */
export function ExportButton({ view }: { view: ListView }) {
  const { state, start, cancel } = useExportPayments();
  const [allColumns, setAllColumns] = useState(false);
  const allId = useId();
  const running = state.phase === 'running';
  const message =
    state.phase === 'running'
      ? `Exporting… ${rowCount(state.progress.rows)}, ${formatBytes(state.progress.bytes)}`
      : state.phase === 'done'
        ? `Saved ${state.fileName}: ${rowCount(state.rows)}.`
        : state.phase === 'cancelled'
          ? 'Export cancelled.'
          : state.phase === 'failed'
            ? state.message
            : '';
  const startExport = () =>
    void start(view, allColumns ? undefined : visibleExportColumns(loadColumnVisibility(), view.group));
  return (
    <div className="export">
      {running ? (
        <button type="button" className="button" onClick={cancel}>
          Cancel export
        </button>
      ) : (
        <button type="button" className="button" onClick={startExport}>
          Export CSV
        </button>
      )}
      <label className="export__columns" htmlFor={allId}>
        <input
          id={allId}
          type="checkbox"
          checked={allColumns}
          disabled={running}
          onChange={(event) => setAllColumns(event.target.checked)}
        />{' '}
        All columns
      </label>
      <span
        className="export__status"
        role="status"
        aria-live="polite"
        data-testid="export-status"
        title={message || undefined}
      >
        {message}
      </span>
    </div>
  );
}

function rowCount(rows: number): string {
  return `${formatCount(rows)} ${rows === 1 ? 'row' : 'rows'}`;
}
