import { useSyncExternalStore } from 'react';

// A row's height in px (the CSS `--row` of the table's body): one line, or on a phone (below 640 px,
// narrow-screens.css) the pinned id with its reference and company on two lines under it.
const ROW = 36;
const PHONE_ROW = 52;
const PHONE = '(max-width: 639px)';

const phoneQuery = () =>
  typeof window === 'undefined' || typeof window.matchMedia !== 'function' ? null : window.matchMedia(PHONE);

function subscribe(onChange: () => void): () => void {
  const query = phoneQuery();
  query?.addEventListener('change', onChange);
  return () => query?.removeEventListener('change', onChange);
}

// Module-level: a new function makes the virtualizer measure every row again.
const estimateRow = () => ROW;
const estimatePhoneRow = () => PHONE_ROW;

/** The height of the table's rows on this screen, and the virtualizer's estimate of it. */
export function useRowHeight(): { rowHeight: number; estimateSize: () => number } {
  const phone = useSyncExternalStore(
    subscribe,
    () => phoneQuery()?.matches ?? false,
    () => false,
  );
  return phone
    ? { rowHeight: PHONE_ROW, estimateSize: estimatePhoneRow }
    : { rowHeight: ROW, estimateSize: estimateRow };
}
