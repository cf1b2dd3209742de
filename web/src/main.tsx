// biome-ignore-all assist/source/organizeImports: first-requests must stay the first import, for its effect
import { firstViewReady, queryClient } from './app/first-requests.ts';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { AppProvider } from './app/provider.tsx';
import { AppRouter } from './app/router.tsx';
import { watchUserInput } from './lib/session-clock.ts';
import './app/app.css';

// The user's input, from the first moment: only requests that follow some count as use of the session.
watchUserInput();
// first-requests is evaluated before React and the app: the first view's requests start before the first render
const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
// Not a top-level await: with one, the bundler moves what the lazy routes share out of the entry, and the first
// view loads several files, which compress worse than one.
void firstViewReady.then(() =>
  // A transition: the first render yields to the browser every few milliseconds instead of holding a slow
  // phone's main thread for the whole first view.
  startTransition(() =>
    createRoot(root).render(
      <StrictMode>
        <AppProvider client={queryClient}>
          <AppRouter />
        </AppProvider>
      </StrictMode>,
    ),
  ),
);
