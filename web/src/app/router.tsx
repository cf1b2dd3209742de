import type { QueryClient } from '@tanstack/react-query';
import { createBrowserRouter, Outlet, ScrollRestoration } from 'react-router';
import { PageLoading } from '../components/page-loading.tsx';
import { paths } from '../config/paths.ts';
import { routeComponent } from './route-components.ts';
import { paymentsLoader, signedInLoader, signInLoader } from './route-loaders.ts';
import { NotFound } from './routes/not-found.tsx';
import { RouteError } from './routes/route-error.tsx';

function FirstLoading() {
  return <PageLoading label="Loading the dashboard…" />;
}

function Root() {
  return (
    <>
      <ScrollRestoration />
      <Outlet />
    </>
  );
}

/**
 * The app's routes, as a React Router data router: each route's loader starts its data in the query cache
 * (route-loaders.ts), the components read it from there. The signed-in routes' components come from main.tsx
 * (route-components.ts), so that making the router evaluates none of them. The sign-in page loads only when it is
 * needed; the parts of the list that are not its first view come with the deferred chunk
 * (features/payments/deferred-parts.ts).
 */
export function createAppRouter(queryClient: QueryClient) {
  return createBrowserRouter([
    {
      element: <Root />,
      HydrateFallback: FirstLoading,
      errorElement: <RouteError />,
      children: [
        {
          path: paths.signIn,
          loader: signInLoader(queryClient),
          lazy: async () => ({ Component: (await import('./routes/sign-in.tsx')).default }),
          errorElement: <RouteError />,
        },
        {
          id: 'signed-in',
          loader: signedInLoader(queryClient),
          lazy: routeComponent('SignedInLayout'),
          errorElement: <RouteError title="The dashboard could not start" />,
          children: [
            {
              // one route for the list with and without the drawer (its child), so opening a payment keeps the table
              path: paths.payments,
              loader: paymentsLoader(queryClient),
              lazy: routeComponent('PaymentsRoute'),
              errorElement: <RouteError />,
              children: [
                {
                  path: paths.paymentPattern,
                  lazy: routeComponent('DeepLinkedPayment'),
                  errorElement: <RouteError title="This payment could not be shown" />,
                },
              ],
            },
          ],
        },
        { path: '*', element: <NotFound /> },
      ],
    },
  ]);
}
