import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { listViewQuery, parseListView, unknownStatuses } from '../view/list-view.ts';
import { ignoredListParams } from './ignored-list-params.ts';

/**
 * Names the values of the address the view could not use, and the statuses it uses though the dashboard does not
 * know them (a link with `status=FOO` lists no payment: said, with the way back to the view without them), until
 * dismissed. In the deferred chunk: the first rows do not wait for it.
 */
export function IgnoredParamsNotice({ params }: { params: URLSearchParams }) {
  const { ignored, unknown, without } = useMemo(() => {
    const view = parseListView(params);
    const unknown = unknownStatuses(view);
    const known = view.statuses.filter((status) => !unknown.includes(status));
    return {
      ignored: ignoredListParams(params),
      unknown,
      without: `${paths.payments}${listViewQuery({ ...view, statuses: known })}`,
    };
  }, [params]);
  const said = [...ignored, ...unknown].join('\n');
  const [dismissed, setDismissed] = useState<string | null>(null);
  if (said === '' || dismissed === said) return null;
  return (
    <div className="notice" role="status">
      {ignored.length > 0 && (
        <p>
          Not used from the address, as no list can be made from {ignored.length === 1 ? 'it' : 'them'}:{' '}
          {ignored.join(', ')}.
        </p>
      )}
      {unknown.length > 0 && (
        <p data-testid="unknown-statuses">
          {unknown.length === 1 ? 'Status' : 'Statuses'} {unknown.map((status) => `“${status}”`).join(', ')}{' '}
          from the address {unknown.length === 1 ? 'is' : 'are'} not known to this dashboard: only payments
          with {unknown.length === 1 ? 'it' : 'them'} are listed, and there may be none.{' '}
          <Link to={without}>Show the view without {unknown.length === 1 ? 'it' : 'them'}</Link>
        </p>
      )}
      <button type="button" className="button button--quiet" onClick={() => setDismissed(said)}>
        Dismiss
      </button>
    </div>
  );
}
