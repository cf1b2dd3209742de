import { memo, useEffect, useRef, useState } from 'react';
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
  const details = useRef<HTMLDetailsElement>(null);
  const [open, setOpen] = useState(false);
  // Escape, or a click outside, closes the panel; Escape returns focus to its button.
  useEffect(() => {
    const element = details.current;
    if (!open || !element) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      element.open = false;
      element.querySelector('summary')?.focus();
    };
    const onPointer = (event: PointerEvent) => {
      if (!element.contains(event.target as Node)) element.open = false;
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
    };
  }, [open]);
  return (
    <details ref={details} className="column-chooser" onToggle={(event) => setOpen(event.currentTarget.open)}>
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
