import { type FocusEvent, type KeyboardEvent, useId, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { exportAgainstSummary } from '../fields/figures-provenance.ts';
import { useDisplayZone } from '../view/display-zone.ts';
import { DEFAULT_VIEW, type ListView } from '../view/list-view.ts';
import { useCountedSummary } from '../view/summary-cache.ts';
import { shownExportColumns } from './export-columns.ts';
import { EXPORT_FORMATS, type ExportFormat } from './export-formats.ts';
import { useExportPayments } from './use-export-payments.ts';

/** What the menu offers: each format, with the columns the table shows or every column. */
const GROUPS: ReadonlyArray<{ format: ExportFormat; items: ReadonlyArray<{ all: boolean; text: string }> }> =
  (['csv', 'xlsx'] as const).map((format) => ({
    format,
    items: [
      { all: false, text: 'Shown columns' },
      { all: true, text: 'All columns' },
    ],
  }));

interface Props {
  view: ListView;
  /** Where the export's status line goes: a place of its own below the toolbar, which nothing covers. */
  statusSlot: HTMLElement | null;
  /** The company's zone; times are written in the one the user reads them in (`tz`). */
  timeZone: string;
  /** No export can be made of the view (a company the user may not see). */
  disabled?: boolean;
}

/**
 * "Export": a menu button (WAI-ARIA APG) offering CSV or XLSX, with the shown or all columns; while a file is
 * made, the same button cancels it. Its live progress and outcome are said in the status slot.
 */
export function ExportMenu({ view, statusSlot, timeZone, disabled = false }: Props) {
  const { running, status, saved, start, cancel } = useExportPayments();
  const { zone } = useDisplayZone(timeZone);
  // a file whose row count is not the summary's says why (payments arrived since the count, …)
  // (the figures of the view without its search: the file holds the whole view)
  const counted = useCountedSummary(saved === null ? DEFAULT_VIEW : { ...saved.view, q: null });
  const note = saved === null ? null : exportAgainstSummary(saved.rows, counted, zone);
  // the file holds the view's rows, a search's or not (an export has no search)
  const figures = useCountedSummary({ ...view, q: null });
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const root = useRef<HTMLDivElement>(null);
  const buttonId = useId();
  const menuId = useId();

  const items = () => [...(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
  const openAt = (which: 'first' | 'last') => {
    setOpen(true);
    // the menu is drawn by this render: focus its item once it is there
    requestAnimationFrame(() => {
      const all = items();
      (which === 'first' ? all[0] : all.at(-1))?.focus();
    });
  };
  const close = () => {
    setOpen(false);
    button.current?.focus();
  };
  const choose = (format: ExportFormat, all: boolean) => {
    close();
    start({
      view,
      format,
      columns: all ? undefined : shownExportColumns(view.group),
      timeZone: zone,
      // the figures of the same view, counted to the end: the rows the file will hold
      expectedRows: figures?.complete ? figures.count : null,
    });
  };

  // Focus leaving the button and its menu (a click elsewhere, Tab) closes the menu.
  const onBlur = (event: FocusEvent) => {
    if (!root.current?.contains(event.relatedTarget as Node | null)) setOpen(false);
  };
  const onButtonKeyDown = (event: KeyboardEvent) => {
    if (running) return;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      openAt(event.key === 'ArrowDown' ? 'first' : 'last');
    }
  };
  const onMenuKeyDown = (event: KeyboardEvent) => {
    const all = items();
    const at = all.indexOf(document.activeElement as HTMLElement);
    const moves: Record<string, number> = {
      ArrowDown: (at + 1) % all.length,
      ArrowUp: (at - 1 + all.length) % all.length,
      Home: 0,
      End: all.length - 1,
    };
    if (event.key === 'Escape') {
      event.preventDefault();
      close();
    } else if (event.key === 'Tab') setOpen(false);
    else if (moves[event.key] !== undefined) {
      event.preventDefault();
      all[moves[event.key] as number]?.focus();
    }
  };

  return (
    <div ref={root} className="export">
      <button
        ref={button}
        id={buttonId}
        type="button"
        className="button export__button"
        aria-haspopup={running ? undefined : 'menu'}
        aria-expanded={running ? undefined : open}
        aria-controls={open ? menuId : undefined}
        disabled={disabled && !running}
        onKeyDown={onButtonKeyDown}
        onBlur={onBlur}
        onClick={() => (running ? cancel() : open ? setOpen(false) : openAt('first'))}
      >
        {running ? (
          'Cancel export'
        ) : (
          <>
            Export{' '}
            <span aria-hidden="true" className="caret">
              ▾
            </span>
          </>
        )}
      </button>
      {open && !running && (
        <div
          ref={menu}
          id={menuId}
          role="menu"
          aria-labelledby={buttonId}
          className="export-menu"
          onKeyDown={onMenuKeyDown}
          onBlur={onBlur}
        >
          {GROUPS.map(({ format, items: choices }) => (
            <fieldset key={format} className="export-menu__group">
              <legend className="export-menu__heading">{EXPORT_FORMATS[format].label}</legend>
              {choices.map(({ all, text }) => (
                <button
                  key={text}
                  type="button"
                  role="menuitem"
                  tabIndex={-1}
                  className="export-menu__item"
                  aria-label={`${EXPORT_FORMATS[format].label}, ${text.toLowerCase()}`}
                  onClick={() => choose(format, all)}
                >
                  {text}
                </button>
              ))}
            </fieldset>
          ))}
        </div>
      )}
      {statusSlot &&
        createPortal(
          <p className="export-status" role="status" aria-live="polite" data-testid="export-status">
            {note === null ? status : `${status} ${note}`}
          </p>,
          statusSlot,
        )}
    </div>
  );
}
