import { memo } from 'react';

/** A column as the chooser lists it, read from the table's columns (payments-table.tsx). */
export interface ChooserColumn {
  id: string;
  label: string;
  visible: boolean;
  canHide: boolean;
  /** A field found in the data that the dashboard does not know. */
  discovered: boolean;
}

interface Props {
  columns: readonly ChooserColumn[];
  onToggle: (id: string, visible: boolean) => void;
  /** Back to the default layout: columns shown, order, widths and pinning. */
  onReset: () => void;
}

/**
 * A disclosure listing every column, the fields discovered in the data included, each with its checkbox, and
 * "Reset columns". Memoized: the table renders on every scroll frame, the choices change only when a column does.
 */
export const ColumnChooser = memo(function ColumnChooser({ columns, onToggle, onReset }: Props) {
  // Escape closes the panel and returns focus to its button; so does focus leaving it (a click outside).
  return (
    <details
      className="column-chooser"
      onKeyDown={(event) => {
        if (event.key !== 'Escape' || !event.currentTarget.open) return;
        event.currentTarget.open = false;
        event.currentTarget.querySelector('summary')?.focus();
      }}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget)) event.currentTarget.open = false;
      }}
    >
      <summary className="button">Columns</summary>
      <div className="column-chooser__panel">
        <fieldset className="column-chooser__choices">
          <legend>Shown columns</legend>
          {columns.map((column) => (
            <label key={column.id} className="check">
              <input
                type="checkbox"
                checked={column.visible}
                disabled={!column.canHide}
                onChange={(e) => onToggle(column.id, e.target.checked)}
              />
              {column.label}
              {column.discovered && <span className="hint"> (field in the data)</span>}
            </label>
          ))}
        </fieldset>
        <button type="button" className="button" onClick={onReset}>
          Reset columns
        </button>
      </div>
    </details>
  );
});
