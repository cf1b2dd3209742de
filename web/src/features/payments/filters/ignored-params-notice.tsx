import { useMemo, useState } from 'react';
import { ignoredListParams } from './ignored-list-params.ts';

/**
 * Names the values of the address the view could not use, until dismissed. In the deferred chunk: the first
 * rows do not wait for it.
 */
export function IgnoredParamsNotice({ params }: { params: URLSearchParams }) {
  const ignored = useMemo(() => ignoredListParams(params), [params]);
  const [dismissed, setDismissed] = useState<readonly string[] | null>(null);
  if (ignored.length === 0 || dismissed === ignored) return null;
  return (
    <p className="notice" role="status">
      Not used from the address, as no list can be made from {ignored.length === 1 ? 'it' : 'them'}:{' '}
      {ignored.join(', ')}.{' '}
      <button type="button" className="button button--quiet" onClick={() => setDismissed(ignored)}>
        Dismiss
      </button>
    </p>
  );
}
