import type { Virtualizer } from '@tanstack/react-virtual';
import {
  type FocusEvent,
  type KeyboardEvent,
  type RefObject,
  useCallback,
  useEffect,
  useRef,
  useState,
} from 'react';

interface Options {
  rowCount: number;
  rowHeight: number;
  scroller: RefObject<HTMLElement | null>;
  virtualizer: Virtualizer<HTMLDivElement, Element>;
}

/**
 * Roving focus over a virtualized list of row links: one link is in the tab order, the arrows, Page keys, Home and
 * End move focus between rows, scrolling the target into view. Also says which row holds focus, so that its
 * element is never handed to another row (see row-keys.ts); when scrolling takes that row out of the drawn ones,
 * focus moves to the first row in view rather than falling to the page.
 */
export function useRowFocus({ rowCount, rowHeight, scroller, virtualizer }: Options) {
  const [activeRow, setActiveRow] = useState(0);
  const [focusedRow, setFocusedRow] = useState<number | null>(null);

  // A row further than the overscan is drawn only after the scroll, so focus reaches it a frame later. Keys
  // pressed before then (key repeat, a busy main thread) move on from that row, not from the one still focused.
  const pendingFocus = useRef<number | null>(null);
  const focusRow = useCallback(
    (index: number) => {
      const target = Math.min(Math.max(index, 0), rowCount - 1);
      const link = () => scroller.current?.querySelector<HTMLElement>(`[data-row-link="${target}"]`);
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
    [rowCount, scroller, virtualizer],
  );

  const onKeyDown = (event: KeyboardEvent<HTMLAnchorElement>, eventIndex: number) => {
    const index = pendingFocus.current ?? eventIndex;
    const page = Math.max(1, Math.floor((scroller.current?.clientHeight ?? 360) / rowHeight) - 1);
    const moves: Record<string, number> = {
      ArrowDown: index + 1,
      ArrowUp: index - 1,
      PageDown: index + page,
      PageUp: index - page,
      Home: 0,
      End: rowCount - 1,
    };
    const next = moves[event.key];
    if (next === undefined) return;
    event.preventDefault();
    focusRow(next);
  };
  // Rows are memoized: they get one handler for their whole life, which always runs the latest code.
  const keyDownRef = useRef(onKeyDown);
  keyDownRef.current = onKeyDown;
  const onRowKeyDown = useCallback(
    (event: KeyboardEvent<HTMLAnchorElement>, index: number) => keyDownRef.current(event, index),
    [],
  );

  // Whether focus was on a row and was not taken elsewhere: a row removed while focused (scrolled far away) drops
  // focus to the page without saying where, and the scroll handler below puts it back on a row.
  const keepsFocus = useRef(false);
  const onRowFocus = useCallback((index: number) => {
    keepsFocus.current = true;
    setActiveRow(index);
    setFocusedRow(index);
  }, []);
  const onRowBlur = useCallback((index: number, event?: FocusEvent) => {
    if (event?.relatedTarget) keepsFocus.current = false;
    setFocusedRow((focused) => (focused === index ? null : focused));
  }, []);
  useEffect(() => {
    const element = scroller.current;
    if (!element) return;
    const onScroll = () => {
      if (!keepsFocus.current || document.activeElement !== document.body) return;
      const top = element.getBoundingClientRect().top;
      const links = element.querySelectorAll<HTMLElement>('[data-row-link]');
      const inView = [...links].find((link) => link.getBoundingClientRect().top >= top + rowHeight);
      inView?.focus({ preventScroll: true });
    };
    element.addEventListener('scroll', onScroll, { passive: true });
    return () => element.removeEventListener('scroll', onScroll);
  }, [scroller, rowHeight]);

  return {
    /** Scrolls to a row and focuses its link. */
    focusRow,
    /** The row whose link is the tab stop; the last row when the list has become shorter. */
    activeRow: Math.min(activeRow, Math.max(0, rowCount - 1)),
    /** The row holding focus, if any. */
    focusedRow,
    onRowFocus,
    onRowBlur,
    onRowKeyDown,
  };
}
