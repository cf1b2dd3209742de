// First, and so before React DOM and the routes' components: the router, whose loaders start the first view's
// requests as it is made (app/start.ts).
import './app/start.ts';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { AppProvider } from './app/provider.tsx';
import { provideRouteComponents } from './app/route-components.ts';
import { PaymentsRoute } from './app/routes/payments.tsx';
import { SignedInLayout } from './app/routes/signed-in-layout.tsx';
import { queryClient, router } from './app/start.ts';
import { DeepLinkedPayment } from './features/payments/detail/deep-linked-payment.tsx';
import './app/app.css';

provideRouteComponents({ SignedInLayout, PaymentsRoute, DeepLinkedPayment });
const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

/** The first render waits for the first view's loaders, or this long, whichever comes first. */
const READY_WAIT_MS = 300;
const ready = new Promise<void>((resolve) => {
  if (router.state.initialized) return resolve();
  const unsubscribe = router.subscribe((state) => {
    if (state.initialized) {
      unsubscribe();
      resolve();
    }
  });
  setTimeout(resolve, READY_WAIT_MS);
});

// Not a top-level await: with one, the bundler moves what the lazy routes share out of the entry, and the first
// view loads several files, which compress worse than one.
void ready.then(() =>
  // A transition: the first render yields to the browser every few milliseconds instead of holding a slow
  // phone's main thread for the whole first view.
  startTransition(() =>
    createRoot(root).render(
      <StrictMode>
        <AppProvider client={queryClient}>
          <RouterProvider router={router} />
        </AppProvider>
      </StrictMode>,
    ),
  ),
);
