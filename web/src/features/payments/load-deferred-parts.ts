import { lazy } from 'react';
import { afterFirstView } from '../../lib/first-view.ts';

/**
 * The parts of the list that its first view does not show (./deferred-parts.ts), asked for once that view is
 * drawn (lib/first-view.ts), or at once by a part that is drawn after the chunk is in.
 */
type DeferredParts = typeof import('./deferred-parts.ts');

let loaded: DeferredParts | undefined;
let loading: Promise<DeferredParts> | undefined;

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
        afterFirstView.then(loadDeferredParts).then((parts) => onLoaded({ default: parts[name] }), onFailed);
    },
  };
  // React.lazy calls nothing but `then`, and only needs it to call back: a thenable, though typed as a Promise
  return lazy(() => part as unknown as Promise<{ default: Part }>);
}
