import { memo } from 'react';
import { columnLabel } from './payment-columns.ts';

interface Props {
  columns: ReadonlyArray<{ id: string; visible: boolean; canHide: boolean; discovered: boolean }>;
  onToggle: (id: string, visible: boolean) => void;
}

/**
 * A disclosure listing every column, the fields discovered in the data included, each with its checkbox. Memoized:
 * the table renders on every scroll frame, the choices change only when a column does.
 */
export const ColumnChooser = memo(function ColumnChooser({ columns, onToggle }: Props) {
  return (
    <details className="column-chooser">
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
            {columnLabel(column.id)}
            {column.discovered && <span className="hint"> (field in the data)</span>}
          </label>
        ))}
      </fieldset>
    </details>
  );
});
