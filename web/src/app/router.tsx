import { lazy, Suspense } from 'react';
import { PageLoading } from '../components/page-loading.tsx';
import { paths } from '../config/paths.ts';
import { BrowserRouter, Route, Routes } from '../lib/history-router.tsx';
import { PaymentsRoute } from './routes/payments.tsx';
import { SignedInLayout } from './routes/signed-in-layout.tsx';

// Signed-in users arrive at the list: the sign-in page loads only when it is needed.
const SignInRoute = lazy(() => import('./routes/sign-in.tsx'));

/**
 * Declarative routes, drawn by the app's own router (lib/history-router.tsx): the app loads its data with TanStack
 * Query, so of a router it needs only paths, the query and history, not loaders or actions.
 */
export function AppRouter() {
  return (
    <BrowserRouter>
      <Routes>
        <Route
          path={paths.signIn}
          element={
            <Suspense fallback={<PageLoading label="Loading…" />}>
              <SignInRoute />
            </Suspense>
          }
        />
        <Route element={<SignedInLayout />}>
          {/* one component for the list with and without the drawer, so opening a payment keeps the table */}
          <Route path={paths.payments} element={<PaymentsRoute />} />
          <Route path={paths.paymentPattern} element={<PaymentsRoute />} />
          <Route path="*" element={null} />
        </Route>
      </Routes>
    </BrowserRouter>
  );
}
