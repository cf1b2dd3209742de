import { useVirtualizer } from '@tanstack/react-virtual';
import { type MouseEvent, type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { useScrollBoxRestoration } from '../../../lib/scroll-box-restoration.ts';
import {
  type ColumnVisibility,
  isColumnVisible,
  loadColumnVisibility,
  saveColumnVisibility,
} from '../fields/column-preferences.ts';
import { paymentCompanyId } from '../fields/company-names.ts';
import type { ValueContext } from '../fields/field-content.tsx';
import { ColumnChooser } from './column-chooser.tsx';
import {
  columnFlex,
  NUMERIC_COLUMNS,
  paymentColumns,
  shownByDefault,
  statusColumnWidth,
} from './payment-columns.ts';
import { type CellLayout, PaymentRow } from './payment-row.tsx';
import { onRowFocusRequest } from './row-focus-request.ts';
import { createRowKeys } from './row-keys.ts';
import { useNextPageLoading } from './use-next-page-loading.ts';
import type { PaymentRows } from './use-payment-rows.ts';
import { useRowFocus } from './use-row-focus.ts';
import { CARD_HEIGHT, useSmallScreen } from './use-small-screen.ts';
import { observeRectAfterLayout, scrollElementUnlessThere } from './virtual-observers.ts';

const ROW_HEIGHT = 36;
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

// Module-level: a new function makes the virtualizer measure every row again.
const estimateSize = () => ROW_HEIGHT;
const estimateCard = () => CARD_HEIGHT;
/** What a card shows, whatever columns the table shows: date, status, amount, counterparty, id. */
const CARD_FIELDS = ['id', 'created_at', 'status', 'amount', 'counterparty'];

/**
 * The loaded payments as a virtualized table: the columns are plain records (payment-columns.ts), TanStack
 * Virtual draws the rows in view, and the next page loads as the end comes near (use-next-page-loading.ts).
 */
export function PaymentsTable({
  list,
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
  const [stored, setStored] = useState<ColumnVisibility>(() => loadColumnVisibility());
  const shownColumns = useMemo(
    () => columns.filter((column) => isColumnVisible(stored, column.id, shownByDefault(column.id))),
    [columns, stored],
  );
  const small = useSmallScreen();
  const visibleColumns = small ? columns.filter((column) => CARD_FIELDS.includes(column.id)) : shownColumns;

  // Stable while the rows are: a new key function makes the virtualizer measure every row again.
  const { keys } = list;
  const getItemKey = useCallback((index: number) => keys[index] ?? index, [keys]);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: small ? estimateCard : estimateSize,
    overscan: OVERSCAN,
    getItemKey,
    // The first render already draws the rows a window can show, and nothing is measured before the browser's
    // own layout (see virtual-observers.ts).
    initialRect: FIRST_RECT,
    observeElementRect: observeRectAfterLayout,
    scrollToFn: scrollElementUnlessThere,
  });
  // Rows and cards differ in height: every offset is measured again when the screen crosses 640 px.
  // biome-ignore lint/correctness/useExhaustiveDependencies: small is the change that matters
  useEffect(() => virtualizer.measure(), [small, virtualizer]);
  const items = virtualizer.getVirtualItems();
  const lastIndex = items.at(-1)?.index ?? -1;

  const { focusRow, activeRow, focusedRow, onRowFocus, onRowBlur, onRowKeyDown } = useRowFocus({
    rowCount: rows.length,
    rowHeight: small ? CARD_HEIGHT : ROW_HEIGHT,
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

  // Built when the visible columns change, not for every row: rows are memoized on these props.
  const columnsKey = visibleColumns.map((column) => `${column.id}:${column.size}:${column.min}`).join(',');
  // biome-ignore lint/correctness/useExhaustiveDependencies: columnsKey names exactly the visible columns
  const cells = useMemo<CellLayout[]>(
    () =>
      visibleColumns.map((column) => ({
        id: column.id,
        className: `grid__cell${NUMERIC_COLUMNS.has(column.id) ? ' is-numeric' : ''}`,
        // cards (small screens) are laid out by CSS, not by column widths
        style: small ? {} : { flex: columnFlex(column) },
      })),
    [columnsKey, small],
  );
  const chooserColumns = useMemo(
    () =>
      columns.map((column) => ({
        id: column.id,
        visible: shownColumns.includes(column),
        canHide: column.canHide,
        discovered: !shownByDefault(column.id),
      })),
    [columns, shownColumns],
  );
  const onToggleColumn = useCallback(
    (id: string, visible: boolean) => {
      if (!columns.some((column) => column.id === id && column.canHide)) return;
      const next = { ...stored, [id]: visible };
      saveColumnVisibility(next);
      setStored(next);
    },
    [columns, stored],
  );

  const firstLoad = list.awaitingRows;

  return (
    <section className="payments" aria-label="Payments list">
      <div className="payments__tools">
        {summary}
        <ColumnChooser columns={chooserColumns} onToggle={onToggleColumn} />
      </div>
      {/* Without rows it holds nothing focusable, so it takes focus itself: keyboard users can still scroll it. */}
      <div ref={scrollRef} className="grid-scroll" tabIndex={rows.length === 0 ? 0 : undefined}>
        <table
          aria-label="Payments"
          aria-rowcount={rows.length + 1}
          aria-colcount={visibleColumns.length}
          aria-busy={firstLoad || list.isFetchingNextPage}
          className="grid"
        >
          <thead className="grid__head">
            <tr aria-rowindex={1} className="grid__row">
              {shownColumns.map((column) => (
                <th
                  scope="col"
                  key={column.id}
                  className={`grid__cell grid__cell--head${NUMERIC_COLUMNS.has(column.id) ? ' is-numeric' : ''}`}
                  style={{ flex: columnFlex(column) }}
                >
                  {column.header}
                </th>
              ))}
            </tr>
          </thead>
          {firstLoad ? (
            <SkeletonBody columnCount={visibleColumns.length} />
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
