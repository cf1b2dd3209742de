import { useId, useState } from 'react';
import { loadColumnVisibility } from '../fields/column-preferences.ts';
import type { ListView } from '../view/list-view.ts';
import { visibleExportColumns } from './export-columns.ts';
import { useExportPayments } from './use-export-payments.ts';

/**
 * Downloads the CSV of the current filters, with the columns the table shows (or all of them), live progress,
 * cancel, and the outcome announced.
 */
export function ExportButton({ view }: { view: ListView }) {
  const { running, status, start, cancel } = useExportPayments();
  const [allColumns, setAllColumns] = useState(false);
  const allId = useId();
  const startExport = () =>
    start({
      view,
      columns: allColumns ? undefined : visibleExportColumns(loadColumnVisibility(), view.group),
    });
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
        title={status || undefined}
      >
        {status}
      </span>
    </div>
  );
}
