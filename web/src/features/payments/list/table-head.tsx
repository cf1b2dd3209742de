import {
  type KeyboardEvent,
  type MouseEvent,
  memo,
  type TouchEvent,
  useEffect,
  useRef,
  useState,
} from 'react';

/** A visible column as its header draws it: plain values, so the head renders only when one of them changes. */
export interface HeadColumn {
  id: string;
  label: string;
  size: number;
  minSize: number;
  maxSize: number;
  /** Its offset from the start when pinned: it sticks there while the table scrolls sideways. */
  pinnedAt: number | null;
  /** The last pinned column draws the edge the others scroll under. */
  lastPinned: boolean;
  numeric: boolean;
  canHide: boolean;
  /** Whether its header orders the list (not in a search's matches, which come in the order found). */
  canSort: boolean;
  /** The order the list is in, on the column that sets it. */
  sorted: false | 'asc' | 'desc';
  /** What the header says of that order: "newest first". */
  orderText: string;
  canMoveLeft: boolean;
  canMoveRight: boolean;
}

/** What the headers do, through the table (payments-table.tsx). Stable: the head is memoized on it. */
export interface HeadActions {
  sort: (id: string) => void;
  startResize: (id: string, event: MouseEvent | TouchEvent) => void;
  resizeBy: (id: string, pixels: number) => void;
  resetSize: (id: string) => void;
  move: (id: string, step: -1 | 1) => void;
  drop: (id: string, target: string) => void;
  togglePin: (id: string) => void;
  hide: (id: string) => void;
}

/** One key press of a focused resize handle: ten pixels, fifty with Shift. */
const RESIZE_STEP = 10;
const RESIZE_BIG_STEP = 50;
const DRAG_TYPE = 'application/x-payments-column';

/**
 * The header row: per column its label (a sort button where the list can be ordered by it, saying the order), a
 * menu (move, width, pin, hide) and a resize handle that a mouse drags and arrow keys move. Headers are dragged
 * onto each other to reorder the columns.
 */
export const TableHead = memo(function TableHead({
  columns,
  actions,
}: {
  columns: readonly HeadColumn[];
  actions: HeadActions;
}) {
  const [menuOf, setMenuOf] = useState<string | null>(null);
  // After a menu's choice, focus goes back to that column's menu button, wherever the column now is.
  const [refocus, setRefocus] = useState<{ id: string } | null>(null);
  const head = useRef<HTMLTableSectionElement>(null);
  useEffect(() => {
    if (refocus === null) return;
    // a column just hidden has no button left: focus stays in the header, on the first column's
    const button =
      head.current?.querySelector<HTMLElement>(`[data-menu-for="${CSS.escape(refocus.id)}"]`) ??
      head.current?.querySelector<HTMLElement>('[data-menu-for]');
    button?.focus();
  }, [refocus]);
  const closeMenu = (id: string, focusButton: boolean) => {
    setMenuOf(null);
    if (focusButton) setRefocus({ id });
  };

  return (
    <thead className="grid__head" ref={head}>
      <tr aria-rowindex={1} className="grid__row">
        {columns.map((column) => (
          <th
            scope="col"
            key={column.id}
            data-column={column.id}
            aria-sort={
              column.sorted === 'asc' ? 'ascending' : column.sorted === 'desc' ? 'descending' : undefined
            }
            className={`grid__cell grid__cell--head${column.numeric ? ' is-numeric' : ''}${column.pinnedAt === null ? '' : ' is-pinned'}${column.lastPinned ? ' is-pinned-last' : ''}`}
            style={{ width: column.size, left: column.pinnedAt ?? undefined }}
            draggable
            onDragStart={(event) => {
              event.dataTransfer.setData(DRAG_TYPE, column.id);
              event.dataTransfer.effectAllowed = 'move';
            }}
            onDragOver={(event) => {
              if (event.dataTransfer.types.includes(DRAG_TYPE)) event.preventDefault();
            }}
            onDrop={(event) => {
              const dragged = event.dataTransfer.getData(DRAG_TYPE);
              if (!dragged) return;
              event.preventDefault();
              actions.drop(dragged, column.id);
            }}
          >
            {column.canSort ? (
              <button
                type="button"
                className="column-head__sort"
                // the whole label where a narrow column cuts it
                title={column.sorted ? `${column.label}, ${column.orderText}` : column.label}
                onClick={() => actions.sort(column.id)}
              >
                {column.label}
                {column.sorted && (
                  <span className="column-head__order">
                    <span aria-hidden="true">{column.sorted === 'desc' ? ' ↓ ' : ' ↑ '}</span>
                    <span className="visually-hidden">, </span>
                    {column.orderText}
                  </span>
                )}
              </button>
            ) : (
              <span className="column-head__label">{column.label}</span>
            )}
            <button
              type="button"
              className="column-head__menu-button"
              data-menu-for={column.id}
              aria-haspopup="menu"
              aria-expanded={menuOf === column.id}
              aria-label={`Column options: ${column.label}`}
              onClick={() => setMenuOf(menuOf === column.id ? null : column.id)}
              onKeyDown={(event) => {
                if (event.key === 'ArrowDown') {
                  event.preventDefault();
                  setMenuOf(column.id);
                }
              }}
            >
              <span aria-hidden="true">⋮</span>
            </button>
            {menuOf === column.id && (
              <ColumnMenu
                column={column}
                actions={actions}
                onClose={(focusButton) => closeMenu(column.id, focusButton)}
              />
            )}
            {/* biome-ignore lint/a11y/useSemanticElements: an <hr> cannot be focused and dragged; the APG's splitter is a separator with a value */}
            <div
              role="separator"
              aria-orientation="vertical"
              aria-label={`Width of ${column.label}`}
              aria-valuenow={Math.round(column.size)}
              aria-valuemin={column.minSize}
              aria-valuemax={column.maxSize}
              aria-valuetext={`${Math.round(column.size)} pixels`}
              tabIndex={0}
              className="column-head__resize"
              onMouseDown={(event) => {
                // not a drag of the header (reordering), nor a text selection
                event.preventDefault();
                actions.startResize(column.id, event);
              }}
              onTouchStart={(event) => actions.startResize(column.id, event)}
              onDoubleClick={() => actions.resetSize(column.id)}
              onKeyDown={(event) => onResizeKey(event, column, actions)}
            />
          </th>
        ))}
      </tr>
    </thead>
  );
});

function onResizeKey(event: KeyboardEvent, column: HeadColumn, actions: HeadActions): void {
  const step = event.shiftKey ? RESIZE_BIG_STEP : RESIZE_STEP;
  const by: Record<string, number> = { ArrowRight: step, ArrowUp: step, ArrowLeft: -step, ArrowDown: -step };
  const pixels = by[event.key];
  if (pixels !== undefined) actions.resizeBy(column.id, pixels);
  else if (event.key === 'Home') actions.resizeBy(column.id, column.minSize - column.size);
  else if (event.key === 'End') actions.resizeBy(column.id, column.maxSize - column.size);
  else return;
  event.preventDefault();
}

/** A column's menu (WAI-ARIA APG menu): arrows move between its items, Enter chooses, Escape closes it. */
function ColumnMenu({
  column,
  actions,
  onClose,
}: {
  column: HeadColumn;
  actions: HeadActions;
  /** Whether focus goes back to the menu's button: not when it left for elsewhere. */
  onClose: (focusButton: boolean) => void;
}) {
  const menu = useRef<HTMLDivElement>(null);
  const items = () => [...(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
  useEffect(() => {
    menu.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
  }, []);
  const choices: Array<{ text: string; enabled: boolean; run: () => void }> = [
    { text: 'Move left', enabled: column.canMoveLeft, run: () => actions.move(column.id, -1) },
    { text: 'Move right', enabled: column.canMoveRight, run: () => actions.move(column.id, 1) },
    { text: 'Wider', enabled: column.size < column.maxSize, run: () => actions.resizeBy(column.id, 40) },
    { text: 'Narrower', enabled: column.size > column.minSize, run: () => actions.resizeBy(column.id, -40) },
    {
      text: column.pinnedAt === null ? 'Pin to the left' : 'Unpin',
      enabled: true,
      run: () => actions.togglePin(column.id),
    },
    ...(column.canHide ? [{ text: 'Hide column', enabled: true, run: () => actions.hide(column.id) }] : []),
  ];
  const onKeyDown = (event: KeyboardEvent) => {
    const all = items();
    const at = all.indexOf(document.activeElement as HTMLElement);
    const next: Record<string, number> = {
      ArrowDown: (at + 1) % all.length,
      ArrowUp: (at - 1 + all.length) % all.length,
      Home: 0,
      End: all.length - 1,
    };
    const to = next[event.key];
    if (to !== undefined) {
      event.preventDefault();
      all[to]?.focus();
    } else if (event.key === 'Escape' || event.key === 'Tab') {
      event.preventDefault();
      onClose(true);
    }
  };
  return (
    <div
      ref={menu}
      role="menu"
      aria-label={`${column.label} column`}
      className="column-menu"
      onKeyDown={onKeyDown}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) onClose(false);
      }}
    >
      {choices.map((choice) => (
        <button
          key={choice.text}
          type="button"
          role="menuitem"
          tabIndex={-1}
          aria-disabled={!choice.enabled}
          className="column-menu__item"
          onClick={() => {
            if (!choice.enabled) return;
            choice.run();
            onClose(true);
          }}
        >
          {choice.text}
        </button>
      ))}
    </div>
  );
}
