import { SIGNED_IN_HINT_COOKIE } from '@payments/shared/rules';
import type { QueryClient } from '@tanstack/react-query';
import { type LoaderFunctionArgs, redirect } from 'react-router';
import { safeNext, signInPath } from '../config/paths.ts';
import { sessionQueryOptions } from '../features/auth/api/get-session.ts';
import { paymentsQueryOptions } from '../features/payments/list/get-payments.ts';
import { listsRows, parseListView } from '../features/payments/view/list-view.ts';
import { appConfigQueryOptions } from '../lib/app-config.ts';

/** The longest the first view waits for its first page before it is drawn (with the loading rows instead). */
const FIRST_PAGE_WAIT_MS = 250;

function here(request: Request): string {
  const url = new URL(request.url);
  return `${url.pathname}${url.search}`;
}

/**
 * Everything behind sign-in: the session, then the config every screen draws from, both from the query cache
 * when there (a change of view asks for neither again). Signed out: to sign-in, back here after.
 */
export function signedInLoader(queryClient: QueryClient) {
  return async ({ request }: LoaderFunctionArgs) => {
    // Signed in as far as the page can tell: the config travels beside the session check, not after it.
    if (signedInHint()) void queryClient.prefetchQuery(appConfigQueryOptions);
    const session = await queryClient.ensureQueryData(sessionQueryOptions);
    if (session === null) throw redirect(signInPath(here(request)));
    await queryClient.ensureQueryData(appConfigQueryOptions);
    return null;
  };
}

/** The BFF's readable hint, set and cleared with the session cookie (which scripts cannot read). */
function signedInHint(): boolean {
  return document.cookie.includes(`${SIGNED_IN_HINT_COOKIE}=1`);
}

let firstView = true;

/**
 * The list of the view the address names, started as the route is matched: beside the session and the config
 * (React Router runs the loaders of a match together), not after the first render. The same query options as the
 * list's own, so nothing is asked twice. Only the page load waits for it, and no longer than FIRST_PAGE_WAIT_MS:
 * drawing the rows at once beats drawing the loading rows and then everything again; a later change of view shows
 * its loading rows at once instead.
 */
export function paymentsLoader(queryClient: QueryClient) {
  return async ({ request }: LoaderFunctionArgs) => {
    const first = firstView;
    firstView = false;
    // Signed out: no data request to be refused.
    if (!signedInHint()) return null;
    const view = parseListView(new URL(request.url).searchParams);
    const page = listsRows(view) ? queryClient.prefetchInfiniteQuery(paymentsQueryOptions(view)) : undefined;
    if (!first) return null;
    await Promise.race([page, new Promise((resolve) => setTimeout(resolve, FIRST_PAGE_WAIT_MS))]);
    return null;
  };
}

/** Signed in already: the sign-in page sends on to where the visitor was going. */
export function signInLoader(queryClient: QueryClient) {
  return async ({ request }: LoaderFunctionArgs) => {
    const session = queryClient.getQueryData(sessionQueryOptions.queryKey);
    if (session) throw redirect(safeNext(new URL(request.url).searchParams.get('next')));
    return null;
  };
}
