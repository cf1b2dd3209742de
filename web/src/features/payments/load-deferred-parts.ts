import { lazy } from 'react';

type DeferredParts = typeof import('./deferred-parts.ts');

let loaded: DeferredParts | undefined;
let loading: Promise<DeferredParts> | undefined;

/** The longest a part waits for the first view to be drawn before its chunk is asked for all the same. */
const FIRST_VIEW_WAIT_MS = 1500;
/** The longest the chunk waits for an idle moment once the first view is drawn. */
const IDLE_WAIT_MS = 500;

let markDrawn: () => void = () => undefined;
const firstViewDrawn = new Promise<void>((resolve) => {
  markDrawn = resolve;
  setTimeout(resolve, FIRST_VIEW_WAIT_MS);
});

/**
 * The first view is on screen (the list's first rows, or why there are none): the deferred chunk may come once
 * the main thread is next idle. Before, it would share the line with the first page, and its evaluation the main
 * thread with the first view's work, and the first view shows none of it (the summary's placeholder stands in
 * for its figures).
 */
export function firstViewIsDrawn(): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(markDrawn, { timeout: IDLE_WAIT_MS });
  else setTimeout(markDrawn, 0);
}

/** Asks for the deferred chunk, once. */
export function loadDeferredParts(): Promise<DeferredParts> {
  loading ??= import('./deferred-parts.ts').then((parts) => {
    loaded = parts;
    return parts;
  });
  return loading;
}

/**
 * A component of the deferred chunk (React.lazy), every part coming with the one chunk. Once the chunk is in, the
 * thenable answers at once, so React draws the part in the same render: a lazy part that suspends shows its
 * fallback, and React reveals what a retry brings no sooner than 300 ms after a fallback appeared, which kept the
 * summary's count and the export waiting that long after the first rows.
 */
export function deferredPart<Name extends keyof DeferredParts>(name: Name) {
  type Part = DeferredParts[Name];
  const part = {
    // biome-ignore lint/suspicious/noThenProperty: React.lazy takes a thenable, and this one answers at once once the chunk is in
    then(onLoaded: (module: { default: Part }) => void, onFailed: (error: unknown) => void) {
      if (loaded) onLoaded({ default: loaded[name] });
      else
        firstViewDrawn.then(loadDeferredParts).then((parts) => onLoaded({ default: parts[name] }), onFailed);
    },
  };
  // React.lazy calls nothing but `then`, and only needs it to call back: a thenable, though typed as a Promise
  return lazy(() => part as unknown as Promise<{ default: Part }>);
}
