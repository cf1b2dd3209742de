import type { Payment } from '@payments/shared';
import { type ColumnVisibilityState, type Updater, useTable } from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import {
  type CSSProperties,
  type KeyboardEvent,
  type MouseEvent,
  memo,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { useNavigate } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { errorMessage, retryCanHelp } from '../../../lib/api-error.ts';
import {
  type ColumnVisibility,
  isColumnVisible,
  loadColumnVisibility,
  saveColumnVisibility,
} from '../../../lib/column-preferences.ts';
import { formatCount } from '../../../lib/format.ts';
import { KNOWN_FIELDS } from '../../../lib/merge-rows.ts';
import { createRowKeys } from '../../../lib/row-keys.ts';
import { observeRectAfterLayout, scrollElementUnlessThere } from '../../../lib/virtual-observers.ts';
import { ColumnChooser } from './column-chooser.tsx';
import {
  type ColumnContext,
  cellContent,
  NUMERIC_COLUMNS,
  paymentColumns,
  paymentTableFeatures,
} from './payment-columns.tsx';

export const ROW_HEIGHT = 36;
// Rows ahead of and behind the view. Reused rows are rewritten on every scroll frame, so more than a few only add
// work: at speed the whole window is new each frame anyway, and the rows are drawn in the frame of the scroll
// (the virtualizer renders synchronously in the scroll event). Each row laid out also leaves layout objects for
// Blink's garbage collector, whose pauses are what pushed the rare scroll frame over 50 ms: 6 → 3 made frames
// ~1.5 ms shorter (median) on the bench machine.
const OVERSCAN = 3;
/** No taller than the window: the first render's guess of the scroller's size, corrected once measured. */
const FIRST_RECT = { width: 0, height: typeof window === 'undefined' ? 0 : window.innerHeight };

export interface PaymentsListState {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  /** An error while loading a further page: the rows already loaded stay. */
  isFetchNextPageError: boolean;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => void;
  retryFirstPage: () => void;
}

interface Props {
  rows: Payment[];
  extraFields: string[];
  timeZone: string;
  /** Current filters as `?…`, carried by detail links. */
  search: string;
  limit: number;
  list: PaymentsListState;
  onClearFilters: () => void;
  hasFilters: boolean;
}

const known = new Set<string>(KNOWN_FIELDS);

/** Module-level so the table's options keep their identity between renders (no row-model rebuilds). */
const rowId = (row: Payment) => String(row.id);
const estimateSize = () => ROW_HEIGHT;

export function PaymentsTable({
  rows,
  extraFields,
  timeZone,
  search,
  limit,
  list,
  onClearFilters,
  hasFilters,
}: Props) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const [stored, setStored] = useState<ColumnVisibility>(() => loadColumnVisibility());
  const columns = useMemo(() => paymentColumns(extraFields, { timeZone }), [extraFields, timeZone]);
  const columnVisibility = useMemo(() => {
    const visibility: ColumnVisibilityState = {};
    for (const column of columns) {
      const id = column.id as string;
      visibility[id] = isColumnVisible(stored, id, known.has(id));
    }
    return visibility;
  }, [columns, stored]);

  const onColumnVisibilityChange = useCallback(
    (updater: Updater<ColumnVisibilityState>) => {
      const next = typeof updater === 'function' ? updater(columnVisibility) : updater;
      const merged = { ...stored, ...next };
      saveColumnVisibility(merged);
      setStored(merged);
    },
    [columnVisibility, stored],
  );

  const tableState = useMemo(() => ({ columnVisibility }), [columnVisibility]);
  // One options object while nothing changes: useTable returns a new table object whenever its options object is
  // new, which would render everything that depends on the table on every scroll frame.
  const tableOptions = useMemo(
    () => ({
      features: paymentTableFeatures,
      columns,
      data: rows,
      getRowId: rowId,
      state: tableState,
      onColumnVisibilityChange,
    }),
    [columns, rows, tableState, onColumnVisibilityChange],
  );
  const table = useTable(tableOptions);

  // The rows are shown as loaded (no sorting or filtering in the table): the body reads them directly rather than
  // through the row model, which would build and cache an object per row and per cell.
  const visibleColumns = table.getVisibleLeafColumns();
  const totalWidth = visibleColumns.reduce((sum, column) => sum + column.getSize(), 0);

  // Roving focus: one row link is in the tab order; the arrows move it, scrolling the row into view.
  const [activeRow, setActiveRow] = useState(0);
  // The row holding focus keeps its element while it is rendered (see row-keys.ts).
  const [focusedRow, setFocusedRow] = useState<number | null>(null);

  // Stable while the rows are: a new key function makes the virtualizer re-measure every row, O(n) per frame.
  const getItemKey = useCallback((index: number) => (rows[index] ? rowId(rows[index]) : index), [rows]);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize,
    overscan: OVERSCAN,
    getItemKey,
    // The first render already draws the rows a window can show, and nothing is measured before the browser's
    // own layout. With the default empty rect and eager measuring it drew no rows, forced a layout inside the
    // commit, drew the rows, and the browser laid the page out a second time before the first rows painted.
    initialRect: FIRST_RECT,
    observeElementRect: observeRectAfterLayout,
    scrollToFn: scrollElementUnlessThere,
  });
  const items = virtualizer.getVirtualItems();
  // Rows entering the view reuse the elements of rows that left (see row-keys.ts): scrolling rewrites text
  // instead of creating and styling dozens of new rows per frame. The rendered rows are contiguous and sit in
  // the flow of the body, pushed down by its padding: one style change per frame moves them all, where a
  // transform per row cost a style recalculation of every row (tens of ms per frame in Chromium).
  const [rowKeysOf] = useState(createRowKeys);
  const rowKeys = rowKeysOf(
    items.map((item) => ({ id: String(item.key), pinned: item.index === focusedRow })),
  );
  const lastIndex = items.length > 0 ? (items[items.length - 1]?.index ?? 0) : -1;

  // The next page loads while about one page of rows is still ahead, so scrolling rarely meets the end.
  const { hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage } = list;
  useEffect(() => {
    if (lastIndex < 0 || !hasNextPage || isFetchingNextPage || isFetchNextPageError) return;
    if (lastIndex >= rows.length - Math.max(limit, 30)) fetchNextPage();
  }, [lastIndex, rows.length, hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage, limit]);

  // A row further than the overscan is drawn only after the scroll, so focus reaches it a frame later. Keys
  // pressed before then (key repeat, a busy main thread) move on from that row, not from the one still focused.
  const pendingFocus = useRef<number | null>(null);
  const focusRow = useCallback(
    (index: number) => {
      const target = Math.min(Math.max(index, 0), rows.length - 1);
      const link = () => scrollRef.current?.querySelector<HTMLElement>(`[data-row-link="${target}"]`);
      setActiveRow(target);
      virtualizer.scrollToIndex(target, { align: 'auto' });
      const drawn = link();
      if (drawn) {
        pendingFocus.current = null;
        drawn.focus();
        return;
      }
      pendingFocus.current = target;
      requestAnimationFrame(() => {
        if (pendingFocus.current !== target) return;
        pendingFocus.current = null;
        link()?.focus();
      });
    },
    [rows.length, virtualizer],
  );
  const onRowKeyDown = (event: KeyboardEvent<HTMLAnchorElement>, eventIndex: number) => {
    const index = pendingFocus.current ?? eventIndex;
    const page = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? 360) / ROW_HEIGHT) - 1);
    const moves: Record<string, number> = {
      ArrowDown: index + 1,
      ArrowUp: index - 1,
      PageDown: index + page,
      PageUp: index - page,
    };
    const next = moves[event.key];
    if (next === undefined) return;
    event.preventDefault();
    focusRow(next);
  };

  // Rows are memoized; they get one handler for their whole life that always runs the latest code.
  const keyDownRef = useRef(onRowKeyDown);
  keyDownRef.current = onRowKeyDown;
  const onRowKeyDownStable = useCallback(
    (event: KeyboardEvent<HTMLAnchorElement>, index: number) => keyDownRef.current(event, index),
    [],
  );
  const onRowFocus = useCallback((index: number) => {
    setActiveRow(index);
    setFocusedRow(index);
  }, []);
  // One click handler for every row link, as a router <Link> would do it (plain left click → in-app navigation,
  // replacing the entry when it is the current URL; modified clicks → the browser's own behaviour), without
  // the router hooks each <Link> runs: those were a third of the script time of a scroll frame.
  const navigate = useNavigate();
  const onBodyClick = useCallback(
    (event: MouseEvent<HTMLTableSectionElement>) => {
      const link = (event.target as Element).closest<HTMLAnchorElement>('a[data-row-link]');
      const to = link?.getAttribute('href');
      if (!to || event.defaultPrevented || event.button !== 0) return;
      if (event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return;
      event.preventDefault();
      navigate(to, { replace: to === `${window.location.pathname}${window.location.search}` });
    },
    [navigate],
  );
  const onRowBlur = useCallback(
    (index: number) => setFocusedRow((focused) => (focused === index ? null : focused)),
    [],
  );
  const columnsKey = visibleColumns.map((column) => column.id).join(',');
  // biome-ignore lint/correctness/useExhaustiveDependencies: columnsKey names exactly the visible columns
  const cells = useMemo(
    () =>
      visibleColumns.map((column) => ({
        id: column.id,
        className: `grid__cell${NUMERIC_COLUMNS.has(column.id) ? ' is-numeric' : ''}`,
        style: { width: column.getSize() },
      })),
    [columnsKey],
  );
  const cellContext = useMemo<ColumnContext>(() => ({ timeZone }), [timeZone]);

  // Everything but the rows depends on the columns only: built when they change, not on every scroll frame.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the table reads columns and visibility from its state
  const chooserColumns = useMemo(
    () =>
      table.getAllLeafColumns().map((column) => ({
        id: column.id,
        visible: column.getIsVisible(),
        canHide: column.getCanHide(),
        discovered: !known.has(column.id),
      })),
    [table, columns, columnVisibility],
  );
  const onToggleColumn = useCallback(
    (id: string, visible: boolean) => table.getColumn(id)?.toggleVisibility(visible),
    [table],
  );
  // biome-ignore lint/correctness/useExhaustiveDependencies: the table reads columns and visibility from its state
  const head = useMemo(
    () => (
      <thead className="grid__head">
        {table.getHeaderGroups().map((group) => (
          <tr aria-rowindex={1} className="grid__row" key={group.id}>
            {group.headers.map((header) => (
              <th
                scope="col"
                key={header.id}
                className={`grid__cell grid__cell--head${NUMERIC_COLUMNS.has(header.column.id) ? ' is-numeric' : ''}`}
                style={{ width: header.getSize() }}
              >
                <table.FlexRender header={header} />
              </th>
            ))}
          </tr>
        ))}
      </thead>
    ),
    [table, columns, columnVisibility],
  );

  const firstLoad = list.isPending;
  const failedFirst = list.isError && rows.length === 0 && !list.isFetchNextPageError;
  const empty = !firstLoad && !list.isError && rows.length === 0;

  return (
    <section className="payments" aria-label="Payments list">
      <div className="payments__tools">
        <ColumnChooser columns={chooserColumns} onToggle={onToggleColumn} />
      </div>
      <div ref={scrollRef} className="grid-scroll">
        <table
          aria-label="Payments"
          aria-rowcount={rows.length + 1}
          aria-colcount={visibleColumns.length}
          aria-busy={firstLoad || list.isFetchingNextPage}
          className="grid"
          style={{ width: totalWidth }}
        >
          {head}
          {firstLoad ? (
            <tbody className="grid__skeleton" data-testid="skeleton">
              {Array.from({ length: 12 }, (_, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: placeholder rows have no identity
                <tr className="grid__row skeleton-row" key={i}>
                  <td className="grid__cell" colSpan={visibleColumns.length}>
                    <span className="skeleton-bar" />
                    {i === 0 && <span className="visually-hidden">Loading payments…</span>}
                  </td>
                </tr>
              ))}
            </tbody>
          ) : (
            // biome-ignore lint/a11y/useKeyWithClickEvents: the row links are the controls; Enter on one clicks it
            <tbody
              onClick={onBodyClick}
              className="grid__body"
              style={{ height: virtualizer.getTotalSize(), paddingTop: items[0]?.start ?? 0 }}
            >
              {items.map((item, i) => {
                const row = rows[item.index];
                return row ? (
                  <PaymentRow
                    key={rowKeys[i]}
                    row={row}
                    index={item.index}
                    active={item.index === activeRow}
                    search={search}
                    cells={cells}
                    context={cellContext}
                    onFocusRow={onRowFocus}
                    onBlurRow={onRowBlur}
                    onRowKeyDown={onRowKeyDownStable}
                  />
                ) : null;
              })}
            </tbody>
          )}
        </table>
        {empty && (
          <div className="panel panel--empty" role="status">
            <p>No payments match {hasFilters ? 'these filters' : 'this company'}.</p>
            {hasFilters && (
              <button type="button" className="button" onClick={onClearFilters}>
                Clear filters
              </button>
            )}
          </div>
        )}
        {failedFirst && (
          <div className="panel panel--error" role="alert">
            <p>{errorMessage(list.error)}</p>
            {retryCanHelp(list.error) && (
              <button type="button" className="button" onClick={list.retryFirstPage}>
                Retry
              </button>
            )}
          </div>
        )}
      </div>
      <footer className="payments__footer">
        <p role="status" aria-live="polite" data-testid="list-status">
          {listStatus(rows.length, list)}
        </p>
        {list.isFetchNextPageError && (
          <div className="inline-error" role="alert">
            <span>Could not load more: {errorMessage(list.error)}</span>
            <button type="button" className="button" onClick={list.fetchNextPage}>
              Retry
            </button>
          </div>
        )}
      </footer>
    </section>
  );
}

function listStatus(count: number, list: PaymentsListState): string {
  if (list.isPending) return 'Loading payments…';
  if (list.isError && count === 0) return 'No payments loaded.';
  const loaded = `${formatCount(count)} ${count === 1 ? 'payment' : 'payments'} loaded`;
  if (list.isFetchingNextPage) return `${loaded} · loading more…`;
  if (list.hasNextPage) return `${loaded} · more available, scroll to load`;
  return `${loaded} · end of list`;
}

interface RowProps {
  row: Payment;
  index: number;
  active: boolean;
  search: string;
  /**
   * The visible columns, in order, with their class and width. Built once per set of columns: a row rendered
   * while scrolling then allocates no props of its own for them, and React finds the same style object again.
   */
  cells: ReadonlyArray<{ id: string; className: string; style: CSSProperties }>;
  context: ColumnContext;
  onFocusRow: (index: number) => void;
  onBlurRow: (index: number) => void;
  onRowKeyDown: (event: KeyboardEvent<HTMLAnchorElement>, index: number) => void;
}

/**
 * One data row. Memoized, so a render that changes nothing for the row (a state change elsewhere in the table)
 * skips it; while scrolling, a reused row element renders with its new row and only its text and attributes change.
 */
const PaymentRow = memo(function PaymentRow({
  row,
  index,
  active,
  search,
  cells,
  context,
  onFocusRow,
  onBlurRow,
  onRowKeyDown,
}: RowProps) {
  const id = rowId(row);
  return (
    <tr aria-rowindex={index + 2} data-row-id={id} className="grid__row grid__row--data">
      {cells.map((cell) => (
        <td
          // keyed by column: a reused row element keeps its cells and only their text changes
          key={cell.id}
          className={cell.className}
          style={cell.style}
          data-column={cell.id}
        >
          {cell.id === 'id' ? (
            <a
              className="row-link"
              href={`${paths.payment(id)}${search}`}
              data-row-link={index}
              tabIndex={active ? 0 : -1}
              onFocus={() => onFocusRow(index)}
              onBlur={() => onBlurRow(index)}
              onKeyDown={(event) => onRowKeyDown(event, index)}
            >
              {id}
            </a>
          ) : (
            cellContent(cell.id, row, context)
          )}
        </td>
      ))}
    </tr>
  );
});
