import { lazy } from 'react';

type DeferredParts = typeof import('./deferred-parts.ts');

/** Asks for the deferred chunk; app/first-requests.ts does it beside the first view's requests. */
export const loadDeferredParts = () => import('./deferred-parts.ts');

/** A component of the deferred chunk, drawn once the chunk is in (React.lazy): every part comes with the one chunk. */
export function deferredPart<Name extends keyof DeferredParts>(name: Name) {
  return lazy(() => loadDeferredParts().then((parts) => ({ default: parts[name] })));
}
