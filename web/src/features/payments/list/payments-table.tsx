import type { Payment } from '@payments/shared';
import { functionalUpdate, type Updater, useTable } from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import {
  type MouseEvent,
  type ReactNode,
  type TouchEvent,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { useNavigate } from 'react-router';
import { useScrollBoxRestoration } from '../../../lib/scroll-box-restoration.ts';
import {
  type ColumnLayout,
  DEFAULT_COLUMN_LAYOUT,
  loadColumnLayout,
  noteShownColumns,
  saveColumnLayout,
} from '../fields/column-layout.ts';
import { paymentCompanyId } from '../fields/company-names.ts';
import type { ValueContext } from '../fields/field-content.tsx';
import { fieldLabel } from '../fields/field-labels.ts';
import type { ListSort } from '../view/list-view.ts';
import { type ChooserColumn, ColumnChooser } from './column-chooser.tsx';
import { type ColumnPlaces, dropColumn, moveColumn, neighbour, togglePinned } from './column-moves.ts';
import {
  NUMERIC_COLUMNS,
  orderWords,
  paymentColumns,
  paymentTableFeatures,
  shownByDefault,
  sortingOf,
  sortOfSorting,
  statusColumnWidth,
} from './payment-columns.ts';
import { type CellLayout, PaymentRow } from './payment-row.tsx';
import { onRowFocusRequest } from './row-focus-request.ts';
import { useRowHeight } from './row-height.ts';
import { createRowKeys } from './row-keys.ts';
import { type HeadActions, type HeadColumn, TableHead } from './table-head.tsx';
import { useNextPageLoading } from './use-next-page-loading.ts';
import type { PaymentRows } from './use-payment-rows.ts';
import { useRowFocus } from './use-row-focus.ts';
import { observeRectAfterLayout, scrollElementUnlessThere } from './virtual-observers.ts';

// Rows ahead of and behind the view. Reused rows are rewritten on every scroll frame, so more than a few only add
// work: at speed the whole window is new each frame anyway, and the rows are drawn in the frame of the scroll
// (the virtualizer renders synchronously in the scroll event). Each row laid out also leaves layout objects for
// Blink's garbage collector, whose pauses are what pushed the rare scroll frame over 50 ms.
const OVERSCAN = 3;
/** No taller than the window: the first render's guess of the scroller's size, corrected once measured. */
const FIRST_RECT = { width: 0, height: typeof window === 'undefined' ? 0 : window.innerHeight };

/** What the table reads of its rows: the list's pages (usePaymentRows), or a search's matches. */
export type TableRows = Pick<
  PaymentRows,
  | 'rows'
  | 'companyIds'
  | 'keys'
  | 'extraFields'
  | 'statuses'
  | 'awaitingRows'
  | 'hasNextPage'
  | 'isFetchingNextPage'
  | 'isFetchNextPageError'
  | 'fetchNextPage'
>;

interface Props {
  /** The loaded rows and where their loading stands. */
  list: TableRows;
  /** Whose column layout this is: each user keeps their own in this browser. */
  username: string;
  /** The list's order, which the BFF applies; its headers change it. Absent: rows come in the order found. */
  sort?: { value: ListSort | null; onChange: (sort: ListSort | null) => void } | undefined;
  /** A group's list names each row's company in a column of its own. */
  group: boolean;
  companyName: (id: string) => string;
  context: ValueContext;
  /** Current filters as `?…`, carried by detail links. */
  search: string;
  limit: number;
  /** The figures of the view, beside the table's tools: the rows keep the height a bar of its own would take. */
  summary: ReactNode;
  /** What stands in the scroller where rows are missing: why there are none (empty, failed). */
  panel: ReactNode;
  /** Below the table: how many rows, how far their loading has come. */
  footer: ReactNode;
}

const NO_ROWS: readonly Payment[] = [];
const UNSORTED = { value: null, onChange: () => {} };

/** The user's layout, loaded again when someone else signs in on this page. */
function useColumnLayout(username: string) {
  const [state, setState] = useState(() => ({ username, layout: loadColumnLayout(username) }));
  if (state.username !== username) setState({ username, layout: loadColumnLayout(username) });
  const setLayout = useCallback(
    (update: (layout: ColumnLayout) => ColumnLayout) =>
      setState((current) => {
        const layout = update(current.layout);
        if (layout !== current.layout) saveColumnLayout(current.username, layout);
        return { ...current, layout };
      }),
    [],
  );
  return [state.layout, setLayout] as const;
}

/**
 * The loaded payments as a virtualized table: a headless TanStack Table built from the column definitions
 * (payment-columns.ts) holds which columns show, their order, widths, pinning and the list's sort; TanStack
 * Virtual draws the rows in view, each drawing its own memoized cells, and the next page loads as the end comes
 * near (use-next-page-loading.ts), as in the TanStack `virtualized-infinite-scrolling` example; unlike it, the
 * rows are not handed to the table (see `data` below).
 */
export function PaymentsTable({
  list,
  username,
  sort = undefined,
  group,
  companyName,
  context,
  search,
  limit,
  summary,
  panel,
  footer,
}: Props) {
  const { rows, companyIds, extraFields, statuses } = list;
  const scrollRef = useRef<HTMLDivElement>(null);
  const statusWidth = statusColumnWidth(statuses);
  const columns = useMemo(
    () => paymentColumns(extraFields, { timeZone: context.timeZone, statusWidth, group }),
    [extraFields, context.timeZone, statusWidth, group],
  );
  const [layout, setLayout] = useColumnLayout(username);
  // Fields found in the data stay hidden until turned on; every other column shows unless the user hid it.
  const columnVisibility = useMemo(
    () =>
      Object.fromEntries(
        columns.map((column) => [column.id, layout.visibility[column.id] ?? shownByDefault(column.id)]),
      ),
    [columns, layout.visibility],
  );
  const columnPinning = useMemo(() => ({ start: layout.pinned, end: [] }), [layout.pinned]);
  const { value: sortValue, onChange: onSortChange } = sort ?? UNSORTED;
  const sorting = useMemo(() => sortingOf(sortValue), [sortValue]);
  const on =
    <Key extends keyof ColumnLayout>(key: Key, current: ColumnLayout[Key]) =>
    (updater: Updater<ColumnLayout[Key]>) =>
      setLayout((previous) => ({ ...previous, [key]: functionalUpdate(updater, current) }));
  const table = useTable({
    features: paymentTableFeatures,
    columns,
    // The table models the columns and the sort; the rows are the loaded pages as the BFF ordered them, drawn by
    // the virtualizer. Handed to the table, every page appended would rebuild a row object per loaded row (all
    // 20,000 of them on the 200th page), work a list that is never sorted or filtered here has no use for.
    data: NO_ROWS,
    state: {
      columnVisibility,
      columnOrder: layout.order,
      columnSizing: layout.sizing,
      columnPinning,
      sorting,
    },
    onColumnVisibilityChange: on('visibility', columnVisibility),
    onColumnOrderChange: on('order', layout.order),
    onColumnSizingChange: on('sizing', layout.sizing),
    onColumnPinningChange: (updater) =>
      setLayout((previous) => ({ ...previous, pinned: functionalUpdate(updater, columnPinning).start })),
    // The BFF orders the list: the table never reorders the loaded rows itself.
    manualSorting: true,
    enableSorting: sort !== undefined,
    enableMultiSort: false,
    enableSortingRemoval: false,
    onSortingChange: (updater) => onSortChange(sortOfSorting(functionalUpdate(updater, sorting))),
    columnResizeMode: 'onChange',
  });

  // Stable while the rows are: a new key function makes the virtualizer measure every row again.
  const { keys } = list;
  const getItemKey = useCallback((index: number) => keys[index] ?? index, [keys]);
  const { rowHeight, estimateSize } = useRowHeight();
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize,
    overscan: OVERSCAN,
    getItemKey,
    // The first render already draws the rows a window can show, and nothing is measured before the browser's
    // own layout (see virtual-observers.ts).
    initialRect: FIRST_RECT,
    observeElementRect: observeRectAfterLayout,
    scrollToFn: scrollElementUnlessThere,
  });
  // a screen turned or resized across the phone width: the rows' places are counted again at their new height
  useEffect(() => {
    if (rowHeight > 0) virtualizer.measure();
  }, [virtualizer, rowHeight]);
  const items = virtualizer.getVirtualItems();
  const lastIndex = items.at(-1)?.index ?? -1;

  const { focusRow, activeRow, focusedRow, onRowFocus, onRowBlur, onRowKeyDown } = useRowFocus({
    rowCount: rows.length,
    rowHeight,
    scroller: scrollRef,
    virtualizer,
  });
  useEffect(() => onRowFocusRequest(focusRow), [focusRow]);
  // Rows entering the view reuse the elements of rows that left (see row-keys.ts): scrolling rewrites text
  // instead of creating and styling dozens of new rows per frame. The rendered rows are contiguous and sit in
  // the flow of the body, pushed down by its padding: one style change per frame moves them all.
  const [rowKeysOf] = useState(createRowKeys);
  const rowKeys = rowKeysOf(
    items.map((item) => ({ id: String(item.key), pinned: item.index === focusedRow })),
  );

  useNextPageLoading(list, lastIndex, limit);
  // Back and Forward bring back where the list was scrolled in that view
  useScrollBoxRestoration(scrollRef, rows.length > 0);

  // One click handler for every row link, as a router <Link> would do it (plain left click → in-app navigation,
  // replacing the entry when it is the current URL; modified clicks → the browser's own behaviour), without
  // the router hooks each <Link> would run in every row.
  const navigate = useNavigate();
  const onBodyClick = useCallback(
    (event: MouseEvent<HTMLTableSectionElement>) => {
      const target = event.target as Element;
      // A click anywhere on a row opens it, as its link does; not one that ends a text selection (copying a value).
      const link =
        target.closest<HTMLAnchorElement>('a[data-row-link]') ??
        (window.getSelection()?.isCollapsed === false
          ? null
          : target.closest('tr[data-row-id]')?.querySelector<HTMLAnchorElement>('a[data-row-link]'));
      const to = link?.getAttribute('href');
      if (!to || event.defaultPrevented || event.button !== 0) return;
      if (event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return;
      event.preventDefault();
      // The address names the payment by its id alone; which company's row was opened travels beside it.
      const company = link?.closest<HTMLElement>('tr')?.dataset.companyId;
      void navigate(to, {
        replace: to === `${window.location.pathname}${window.location.search}`,
        state: company === undefined ? null : { company },
        // the drawer opens over the list, which stays where it is
        preventScrollReset: true,
      });
    },
    [navigate],
  );

  // The visible columns as drawn: the pinned ones first (in their order), then the others.
  const pinnedColumns = table.getStartVisibleLeafColumns();
  const centerColumns = table.getCenterVisibleLeafColumns();
  const drawn = [...pinnedColumns, ...centerColumns];
  const places: ColumnPlaces = {
    all: table.getAllLeafColumns().map((column) => column.id),
    pinned: pinnedColumns.map((column) => column.id),
    center: centerColumns.map((column) => column.id),
  };
  const lastPinned = pinnedColumns.at(-1)?.id;
  const sorted = sorting[0];
  const headColumns: HeadColumn[] = drawn.map((column) => {
    const pinned = column.getIsPinned() === 'start';
    return {
      id: column.id,
      label: String(column.columnDef.header ?? column.id),
      size: column.getSize(),
      minSize: column.columnDef.minSize ?? 0,
      maxSize: column.columnDef.maxSize ?? Number.MAX_SAFE_INTEGER,
      pinnedAt: pinned ? column.getStart('start') : null,
      lastPinned: column.id === lastPinned,
      numeric: NUMERIC_COLUMNS.has(column.id),
      canHide: column.getCanHide(),
      canSort: column.getCanSort(),
      sorted: column.getCanSort() ? column.getIsSorted() : false,
      orderText: sorted?.id === column.id ? orderWords(column.id, sorted.desc) : '',
      canMoveLeft: neighbour(places, column.id, -1) !== undefined,
      canMoveRight: neighbour(places, column.id, 1) !== undefined,
    };
  });
  // Built when the drawn columns change, not for every row nor every scroll frame: rows and the head are
  // memoized on these.
  const headKey = JSON.stringify(headColumns);
  // biome-ignore lint/correctness/useExhaustiveDependencies: headKey names exactly the drawn columns
  const stableHead = useMemo(() => headColumns, [headKey]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: headKey names exactly the drawn columns
  const cells = useMemo<CellLayout[]>(
    () =>
      headColumns.map((column) => ({
        id: column.id,
        className: `grid__cell${column.numeric ? ' is-numeric' : ''}${column.pinnedAt === null ? '' : ' is-pinned'}${column.lastPinned ? ' is-pinned-last' : ''}`,
        style: { width: column.size, left: column.pinnedAt ?? undefined },
      })),
    [headKey],
  );
  const shownIds = cells.map((cell) => cell.id).join(',');
  // The export's "shown columns" are these, in this order.
  useEffect(() => noteShownColumns(shownIds.split(',')), [shownIds]);

  // The head's actions go through the table as it is at the time of the action: stable, for the memoized head.
  const latest = useRef({ table, places, layout });
  latest.current = { table, places, layout };
  const actions = useMemo<HeadActions>(
    () => ({
      sort: (id) => latest.current.table.getColumn(id)?.toggleSorting(),
      startResize: (id, event: MouseEvent | TouchEvent) =>
        latest.current.table
          .getFlatHeaders()
          .find((header) => header.column.id === id)
          ?.getResizeHandler()(event),
      resizeBy: (id, pixels) => {
        const column = latest.current.table.getColumn(id);
        if (!column) return;
        const { minSize = 0, maxSize = Number.MAX_SAFE_INTEGER } = column.columnDef;
        const size = Math.min(maxSize, Math.max(minSize, column.getSize() + pixels));
        latest.current.table.setColumnSizing((sizes) => ({ ...sizes, [id]: size }));
      },
      resetSize: (id) => latest.current.table.getColumn(id)?.resetSize(),
      move: (id, step) => {
        const { table, places, layout } = latest.current;
        applyOrder(table, moveColumn(layout, places, id, step));
      },
      drop: (id, target) => {
        const { table, places, layout } = latest.current;
        applyOrder(table, dropColumn(layout, places, id, target));
      },
      togglePin: (id) => {
        const { table, layout } = latest.current;
        table.setColumnPinning({ start: togglePinned(layout, id).pinned, end: [] });
      },
      hide: (id) => latest.current.table.getColumn(id)?.toggleVisibility(false),
    }),
    [],
  );

  const chooserKey = table
    .getAllLeafColumns()
    .map((column) => `${column.id}:${column.getIsVisible()}`)
    .join(',');
  // biome-ignore lint/correctness/useExhaustiveDependencies: chooserKey names every column and whether it shows
  const chooserColumns = useMemo<ChooserColumn[]>(
    () =>
      table.getAllLeafColumns().map((column) => ({
        id: column.id,
        label: fieldLabel(column.id),
        visible: column.getIsVisible(),
        canHide: column.getCanHide(),
        discovered: !shownByDefault(column.id),
      })),
    [chooserKey],
  );
  const onToggleColumn = useCallback(
    (id: string, visible: boolean) => latest.current.table.getColumn(id)?.toggleVisibility(visible),
    [],
  );
  const onResetColumns = useCallback(() => setLayout(() => DEFAULT_COLUMN_LAYOUT), [setLayout]);

  const firstLoad = list.awaitingRows;

  return (
    <section className="payments" aria-label="Payments list">
      <div className="payments__tools">
        {summary}
        <ColumnChooser columns={chooserColumns} onToggle={onToggleColumn} onReset={onResetColumns} />
      </div>
      {/* Without rows it holds nothing focusable, so it takes focus itself: keyboard users can still scroll it. */}
      <div ref={scrollRef} className="grid-scroll" tabIndex={rows.length === 0 ? 0 : undefined}>
        <table
          aria-label="Payments"
          aria-rowcount={rows.length + 1}
          aria-colcount={cells.length}
          aria-busy={firstLoad || list.isFetchingNextPage}
          className="grid"
          // as wide as its columns, and at least as its box: narrower boxes scroll it sideways
          style={{ width: `max(100%, ${table.getTotalSize()}px)` }}
        >
          <TableHead columns={stableHead} actions={actions} />
          {firstLoad ? (
            <SkeletonBody columnCount={cells.length} />
          ) : (
            // biome-ignore lint/a11y/useKeyWithClickEvents: the row links are the controls; Enter on one clicks it
            <tbody
              onClick={onBodyClick}
              className="grid__body"
              style={{ height: virtualizer.getTotalSize(), paddingTop: items[0]?.start ?? 0 }}
            >
              {items.map((item, i) => {
                const row = rows[item.index];
                if (!row) return null;
                const companyId = group ? paymentCompanyId(row, companyIds[item.index], '') : undefined;
                return (
                  <PaymentRow
                    key={rowKeys[i]}
                    row={row}
                    companyId={companyId}
                    company={companyId === undefined ? undefined : companyName(companyId)}
                    index={item.index}
                    active={item.index === activeRow}
                    search={search}
                    cells={cells}
                    context={context}
                    onFocusRow={onRowFocus}
                    onBlurRow={onRowBlur}
                    onRowKeyDown={onRowKeyDown}
                  />
                );
              })}
            </tbody>
          )}
        </table>
        {panel}
      </div>
      {footer}
    </section>
  );
}

type PaymentTable = ReturnType<typeof useTable<typeof paymentTableFeatures, Payment>>;

/** A move's new order and pinning, set through the table. */
function applyOrder(table: PaymentTable, moved: ColumnLayout): void {
  table.setColumnOrder(moved.order);
  table.setColumnPinning({ start: moved.pinned, end: [] });
}

/** Placeholder rows while the first page loads. */
function SkeletonBody({ columnCount }: { columnCount: number }) {
  return (
    <tbody className="grid__skeleton" data-testid="skeleton">
      {Array.from({ length: 12 }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholder rows have no identity
        <tr className="grid__row skeleton-row" key={i}>
          <td className="grid__cell" colSpan={columnCount}>
            <span className="skeleton-bar" />
            {i === 0 && <span className="visually-hidden">Loading payments…</span>}
          </td>
        </tr>
      ))}
    </tbody>
  );
}
