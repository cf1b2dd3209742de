import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { AppProvider } from './app/provider.tsx';
import { createAppRouter } from './app/router.tsx';
import { createQueryClient } from './lib/query-client.ts';
import { watchUserInput } from './lib/session-clock.ts';
import './app/app.css';

// The user's input, from the first moment: only requests that follow some count as use of the session.
watchUserInput();
const queryClient = createQueryClient();
// Created before the first render: the router matches the address and starts its loaders (the session, the
// config and the first page together) while React starts.
const router = createAppRouter(queryClient);
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
