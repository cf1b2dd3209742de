import { createQueryClient } from '../lib/query-client.ts';
import { watchUserInput } from '../lib/session-clock.ts';
import { createAppRouter } from './router.tsx';

/**
 * The app's start: the query client and the router, made as this module is evaluated. main.tsx imports it before
 * anything else, so the router matches the address and its loaders ask for the session, the config and the first
 * page before React DOM and the routes' components are evaluated (some 90 ms on a slow machine), not after. The
 * router needs neither: the components come through route-components.ts.
 */

// The user's input, from the first moment: only requests that follow some count as use of the session.
watchUserInput();
export const queryClient = createQueryClient();
export const router = createAppRouter(queryClient);
