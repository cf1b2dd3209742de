import { type RefObject, useLayoutEffect, useRef } from 'react';
import { useLocation, useNavigationType } from 'react-router';

/** Where each history entry left its scroll box, by the entry's key; kept for the tab's life (sessionStorage). */
const STORAGE_KEY = 'payments:scroll-boxes';
/** The most entries remembered: a long session's oldest positions give way. */
const MAX_ENTRIES = 200;

function readPositions(): Map<string, number> {
  try {
    const stored: unknown = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? '[]');
    return new Map(Array.isArray(stored) ? (stored as [string, number][]) : []);
  } catch {
    return new Map();
  }
}

let positions: Map<string, number> | undefined;
/** React Router's key for a history entry it did not make (a page opened from an address or a link). */
const FRESH_ENTRY = 'default';

function remember(key: string, top: number): void {
  positions ??= readPositions();
  positions.delete(key);
  positions.set(key, top);
  for (const oldest of positions.keys()) {
    if (positions.size <= MAX_ENTRIES) break;
    positions.delete(oldest);
  }
}

function savePositions(): void {
  try {
    if (positions) sessionStorage.setItem(STORAGE_KEY, JSON.stringify([...positions]));
  } catch {
    // full or refused storage: positions are still kept for this page's life
  }
}

/**
 * React Router's ScrollRestoration for a scroll box of the page's own (a virtualized list scrolls itself, not the
 * window): its scrollTop is remembered per history entry, and on Back or Forward the entry's position comes back
 * once the box holds rows enough to reach it (`ready`: the rows are there; a position beyond them scrolls as far
 * as they go, which loads the next page, and so on). A new entry (a link, a filter) keeps what the box shows.
 */
export function useScrollBoxRestoration(box: RefObject<HTMLElement | null>, ready: boolean): void {
  const { key, pathname, search } = useLocation();
  // A page opened from an address has no entry of its own ('default', in every such page): its address stands
  // in, so another address's list position is never brought back there.
  const entry = key === FRESH_ENTRY ? `${FRESH_ENTRY}:${pathname}${search}` : key;
  const navigationType = useNavigationType();
  // The entry the box's scrolling belongs to: set in the commit of a navigation, before the browser reports the
  // scroll its new content causes, which then counts for the new entry, not the one left.
  const current = useRef(entry);
  const pending = useRef<number | null>(null);

  useLayoutEffect(() => {
    current.current = entry;
    positions ??= readPositions();
    pending.current = navigationType === 'POP' ? (positions.get(entry) ?? null) : null;
  }, [entry, navigationType]);

  useLayoutEffect(() => {
    const element = box.current;
    if (!element) return;
    const onScroll = () => remember(current.current, element.scrollTop);
    element.addEventListener('scroll', onScroll, { passive: true });
    window.addEventListener('pagehide', savePositions);
    return () => {
      element.removeEventListener('scroll', onScroll);
      window.removeEventListener('pagehide', savePositions);
      savePositions();
    };
  }, [box]);

  // After every render until reached: the rows of a cached view are drawn in the navigation's own render, those
  // of a view loading again a few renders later.
  useLayoutEffect(() => {
    const element = box.current;
    const top = pending.current;
    if (!element || top === null || !ready) return;
    const reachable = element.scrollHeight - element.clientHeight;
    element.scrollTop = Math.min(top, reachable);
    if (reachable >= top) pending.current = null;
  });
}
