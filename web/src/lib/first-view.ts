/**
 * When the code the first view does not show may come: once the first view is on screen (the list's first rows,
 * or why there are none) and the main thread is next idle. Before, it would share the line with the first page,
 * and its evaluation the main thread with the first view's work. Sooner when the user reaches for the page
 * (a key, a press) before the first view is drawn, or when the first view has not come after a long while.
 */

/** The longest the code waits for the first view to be drawn before it is asked for all the same. */
const FIRST_VIEW_WAIT_MS = 5_000;
/** The longest it waits for an idle moment once the first view is drawn. */
const IDLE_WAIT_MS = 500;
/** Input that says the user wants the page now: what is still to come should not wait for the rows. */
const REACHING_EVENTS = ['keydown', 'pointerdown'] as const;

let markDrawn: () => void = () => undefined;

/** Settles once the first view is drawn (and the main thread idle), or the user reaches for the page. */
export const afterFirstView: Promise<void> = new Promise<void>((resolve) => {
  const settle = () => {
    clearTimeout(timer);
    for (const type of REACHING_EVENTS) window.removeEventListener(type, settle, { capture: true });
    resolve();
  };
  markDrawn = settle;
  const timer = setTimeout(settle, FIRST_VIEW_WAIT_MS);
  for (const type of REACHING_EVENTS) window.addEventListener(type, settle, { capture: true });
});

/** The first view is on screen: what waits for it may come once the main thread is next idle. */
export function firstViewIsDrawn(): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(markDrawn, { timeout: IDLE_WAIT_MS });
  else setTimeout(markDrawn, 0);
}
