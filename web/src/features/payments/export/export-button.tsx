import { useId, useState } from 'react';
import { loadColumnVisibility } from '../fields/column-preferences.ts';
import { exportAgainstSummary } from '../summary/figures-provenance.ts';
import { useCountedSummary } from '../summary/summary-cache.ts';
import { useDisplayZone } from '../view/display-zone.ts';
import { DEFAULT_VIEW, type ListView } from '../view/list-view.ts';
import { visibleExportColumns } from './export-columns.ts';
import { useExportPayments } from './use-export-payments.ts';

/**
 * Downloads the CSV of the current filters, with the columns the table shows (or all of them), live progress,
 * cancel, and the outcome announced.
 */
export function ExportButton({
  view,
  timeZone,
  disabled = false,
}: {
  view: ListView;
  /** The company's zone; times are written in the one the user reads them in. */
  timeZone: string;
  /** No export can be made of the view (a company the user may not see). */
  disabled?: boolean;
}) {
  const { running, status, saved, start, cancel } = useExportPayments();
  const [allColumns, setAllColumns] = useState(false);
  const allId = useId();
  const { zone } = useDisplayZone(timeZone);
  // a file whose row count is not the summary's says why (payments arrived since the count, …)
  const counted = useCountedSummary(saved?.view ?? DEFAULT_VIEW);
  const note = saved === null ? null : exportAgainstSummary(saved.rows, counted, zone);
  const line = note === null ? status : `${status} ${note}`;
  const startExport = () =>
    start({
      view,
      columns: allColumns ? undefined : visibleExportColumns(loadColumnVisibility(), view.group),
      timeZone: zone === timeZone ? undefined : zone,
    });
  return (
    <div className="export">
      {running ? (
        <button type="button" className="button" onClick={cancel}>
          Cancel export
        </button>
      ) : (
        <button type="button" className="button" onClick={startExport} disabled={disabled}>
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
        title={line || undefined}
      >
        {line}
      </span>
    </div>
  );
}
