import { SIGNED_IN_HINT_COOKIE } from '@payments/shared/rules';
import { isListPath } from '../config/paths.ts';
import { sessionQueryOptions } from '../features/auth/api/get-session.ts';
import { paymentsQueryOptions } from '../features/payments/list/get-payments.ts';
import { loadDeferredParts } from '../features/payments/load-deferred-parts.ts';
import { listsRows, parseListView } from '../features/payments/view/list-view.ts';
import { appConfigQueryOptions } from '../lib/app-config.ts';
import { createQueryClient } from '../lib/query-client.ts';

/**
 * The app's query client, with the requests of the first view already started. main.tsx imports this module
 * first, so this runs before React, the router and the components are evaluated and rendered: the session, the
 * config and the first page travel while the rest of the app starts, instead of after its first render.
 * Whatever the URL asks for is exactly what the list will ask for (same query options), so nothing is fetched
 * twice; a visitor who is not signed in gets the same 401s the signed-in area would have met anyway.
 */
export const queryClient = createQueryClient();

/** The longest the first render waits for the first view's answers before it shows the loading state. */
const READY_WAIT_MS = 250;

function startFirstRequests(): Promise<unknown> {
  const { pathname, search } = window.location;
  if (!isListPath(pathname)) return Promise.resolve();
  // Signed out: one session check, whose 401 sends the visitor to sign in; no data requests to be refused.
  // (the BFF's readable hint is set and cleared with the session cookie)
  if (!document.cookie.includes(`${SIGNED_IN_HINT_COOKIE}=1`))
    return queryClient.prefetchQuery(sessionQueryOptions);
  const view = parseListView(new URLSearchParams(search));
  const answers = Promise.allSettled([
    queryClient.prefetchQuery(sessionQueryOptions),
    queryClient.prefetchQuery(appConfigQueryOptions),
    listsRows(view) ? queryClient.prefetchInfiniteQuery(paymentsQueryOptions(view)) : undefined,
  ]);
  // The summary's code travels with these; the count itself is asked for by the summary bar once the first view
  // is drawn: on a slow line its stream would otherwise share the bandwidth with the first rows.
  void loadDeferredParts();
  return Promise.race([answers, new Promise((resolve) => setTimeout(resolve, READY_WAIT_MS))]);
}

/**
 * Settles when the first view's answers are in the cache, or after READY_WAIT_MS: rendering then draws the rows
 * at once, where rendering earlier would draw the loading state, then everything again a moment later.
 */
export const firstViewReady = startFirstRequests();
