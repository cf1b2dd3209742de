import { Link } from 'react-router';
import { paths } from '../../config/paths.ts';
import { usePageTitle } from '../../lib/page-title.ts';

/** An address the app has no page for: said so, with the way to the payments (the BFF answers 200 for any path). */
export function NotFound() {
  usePageTitle(['Page not found']);
  return (
    <main id="main" className="page">
      <div className="panel" role="alert">
        <h1 className="panel__title">Page not found</h1>
        <p>
          There is no page at this address. It may have been mistyped, or the link that led here is out of
          date.
        </p>
        <Link className="button" to={paths.payments}>
          Go to the payments
        </Link>
      </div>
    </main>
  );
}
