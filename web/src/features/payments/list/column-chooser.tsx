import { memo } from 'react';
import { fieldLabel } from '../fields/field-labels.ts';

interface Props {
  columns: ReadonlyArray<{ id: string; visible: boolean; canHide: boolean; discovered: boolean }>;
  onToggle: (id: string, visible: boolean) => void;
}

/**
 * A disclosure listing every column, the fields discovered in the data included, each with its checkbox. Memoized:
 * the table renders on every scroll frame, the choices change only when a column does.
 */
export const ColumnChooser = memo(function ColumnChooser({ columns, onToggle }: Props) {
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
      <fieldset className="column-chooser__panel">
        <legend>Shown columns</legend>
        {columns.map((column) => (
          <label key={column.id} className="check">
            <input
              type="checkbox"
              checked={column.visible}
              disabled={!column.canHide}
              onChange={(e) => onToggle(column.id, e.target.checked)}
            />
            {fieldLabel(column.id)}
            {column.discovered && <span className="hint"> (field in the data)</span>}
          </label>
        ))}
      </fieldset>
    </details>
  );
});
