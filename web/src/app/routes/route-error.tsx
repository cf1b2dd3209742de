import { isRouteErrorResponse, Link, useRevalidator, useRouteError } from 'react-router';
import { ErrorPanel } from '../../components/error-panel.tsx';
import { paths } from '../../config/paths.ts';
import { errorMessage } from '../../lib/api-error.ts';
import { usePageTitle } from '../../lib/page-title.ts';

/** What a route's loader or drawing threw, in words a user can act on. */
function describe(error: unknown): string {
  if (isRouteErrorResponse(error))
    return error.status === 404 ? 'There is no page at this address.' : `The page answered ${error.status}.`;
  return errorMessage(error);
}

/**
 * A route's errorElement: what went wrong in plain words, with Retry (its loaders run again) and the way back to
 * the payments, instead of a blank page.
 */
export function RouteError({ title = 'This page could not be shown' }: { title?: string }) {
  const error = useRouteError();
  const revalidator = useRevalidator();
  usePageTitle(['Error']);
  return (
    <main id="main" className="page">
      <ErrorPanel title={title} message={describe(error)}>
        <p className="panel__actions">
          <button
            type="button"
            className="button"
            disabled={revalidator.state === 'loading'}
            onClick={() => void revalidator.revalidate()}
          >
            Retry
          </button>{' '}
          <Link className="button button--quiet" to={paths.payments}>
            Back to the payments
          </Link>
        </p>
      </ErrorPanel>
    </main>
  );
}
