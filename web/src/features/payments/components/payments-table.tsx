import type { Payment } from '@payments/shared';
import { type ColumnVisibilityState, FlexRender, type Updater, useTable } from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import { type KeyboardEvent, memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { errorMessage, isApiError } from '../../../lib/api-error.ts';
import {
  type ColumnVisibility,
  isColumnVisible,
  loadColumnVisibility,
  saveColumnVisibility,
} from '../../../lib/column-preferences.ts';
import { formatCount } from '../../../lib/format.ts';
import { KNOWN_FIELDS } from '../../../lib/merge-rows.ts';
import { ColumnChooser } from './column-chooser.tsx';
import { NUMERIC_COLUMNS, paymentColumns, paymentTableFeatures } from './payment-columns.tsx';

export const ROW_HEIGHT = 36;
const OVERSCAN = 12;

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
  const table = useTable({
    features: paymentTableFeatures,
    columns,
    data: rows,
    getRowId: rowId,
    state: tableState,
    onColumnVisibilityChange,
  });

  const tableRows = table.getRowModel().rows;
  const visibleColumns = table.getVisibleLeafColumns();
  const totalWidth = visibleColumns.reduce((sum, column) => sum + column.getSize(), 0);

  // Stable while the rows are: a new key function makes the virtualizer re-measure every row, O(n) per frame.
  const getItemKey = useCallback((index: number) => tableRows[index]?.id ?? index, [tableRows]);
  const virtualizer = useVirtualizer({
    count: tableRows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: OVERSCAN,
    getItemKey,
  });
  const items = virtualizer.getVirtualItems();
  const lastIndex = items.length > 0 ? (items[items.length - 1]?.index ?? 0) : -1;

  // The next page loads while about one page of rows is still ahead, so scrolling rarely meets the end.
  const { hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage } = list;
  useEffect(() => {
    if (lastIndex < 0 || !hasNextPage || isFetchingNextPage || isFetchNextPageError) return;
    if (lastIndex >= tableRows.length - Math.max(limit, 30)) fetchNextPage();
  }, [
    lastIndex,
    tableRows.length,
    hasNextPage,
    isFetchingNextPage,
    isFetchNextPageError,
    fetchNextPage,
    limit,
  ]);

  // Roving focus: one row link is in the tab order; the arrows move it, scrolling the row into view.
  const [activeRow, setActiveRow] = useState(0);
  const focusRow = useCallback(
    (index: number) => {
      const target = Math.min(Math.max(index, 0), tableRows.length - 1);
      setActiveRow(target);
      virtualizer.scrollToIndex(target, { align: 'auto' });
      requestAnimationFrame(() => {
        scrollRef.current?.querySelector<HTMLElement>(`[data-row-link="${target}"]`)?.focus();
      });
    },
    [tableRows.length, virtualizer],
  );
  const onRowKeyDown = (event: KeyboardEvent<HTMLAnchorElement>, index: number) => {
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
  const columnsKey = visibleColumns.map((column) => column.id).join(',');

  const chooserColumns = table.getAllLeafColumns().map((column) => ({
    id: column.id,
    visible: column.getIsVisible(),
    canHide: column.getCanHide(),
    discovered: !known.has(column.id),
  }));

  const firstLoad = list.isPending;
  const failedFirst = list.isError && rows.length === 0 && !list.isFetchNextPageError;
  const empty = !firstLoad && !list.isError && rows.length === 0;

  return (
    <section className="payments" aria-label="Payments list">
      <div className="payments__tools">
        <ColumnChooser
          columns={chooserColumns}
          onToggle={(id, visible) => table.getColumn(id)?.toggleVisibility(visible)}
        />
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
            <tbody className="grid__body" style={{ height: virtualizer.getTotalSize() }}>
              {items.map((item) => {
                const row = tableRows[item.index];
                return row ? (
                  <PaymentRow
                    key={row.id}
                    row={row}
                    index={item.index}
                    start={item.start}
                    active={item.index === activeRow}
                    search={search}
                    columnsKey={columnsKey}
                    onFocusRow={setActiveRow}
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
            {/* asking again cannot grant access; the company switcher is the way out */}
            {!(isApiError(list.error) && list.error.code === 'forbidden_company') && (
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

type TableRow = ReturnType<
  ReturnType<typeof useTable<typeof paymentTableFeatures, Payment>>['getRowModel']
>['rows'][number];

interface RowProps {
  row: TableRow;
  index: number;
  start: number;
  active: boolean;
  search: string;
  /** Changes when the visible columns change, so the memoized row renders again. */
  columnsKey: string;
  onFocusRow: (index: number) => void;
  onRowKeyDown: (event: KeyboardEvent<HTMLAnchorElement>, index: number) => void;
}

/**
 * One data row. Memoized: while scrolling, rows that stay in view are not rendered again, only those that
 * enter it, which keeps each frame's work to a few rows.
 */
const PaymentRow = memo(function PaymentRow({
  row,
  index,
  start,
  active,
  search,
  onFocusRow,
  onRowKeyDown,
}: RowProps) {
  return (
    <tr
      aria-rowindex={index + 2}
      data-row-id={row.id}
      className="grid__row grid__row--data"
      // positioned through CSSOM (allowed by the CSP); inline style attributes are not used
      style={{ transform: `translateY(${start}px)` }}
    >
      {row.getVisibleCells().map((cell) => (
        <td
          key={cell.id}
          className={`grid__cell${NUMERIC_COLUMNS.has(cell.column.id) ? ' is-numeric' : ''}`}
          style={{ width: cell.column.getSize() }}
          data-column={cell.column.id}
        >
          {cell.column.id === 'id' ? (
            <Link
              className="row-link"
              to={`${paths.payment(row.id)}${search}`}
              data-row-link={index}
              tabIndex={active ? 0 : -1}
              onFocus={() => onFocusRow(index)}
              onKeyDown={(event) => onRowKeyDown(event, index)}
            >
              {row.id}
            </Link>
          ) : (
            <FlexRender cell={cell} />
          )}
        </td>
      ))}
    </tr>
  );
});
