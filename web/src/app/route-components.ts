import type { ComponentType } from 'react';

/**
 * The components of the routes that draw the signed-in app, handed to the router once they are evaluated. The
 * router (router.tsx) is made first and its loaders ask for the session, the config and the first page at once;
 * these components, with React DOM and everything they import, are evaluated after that, while those requests
 * are on their way (main.tsx imports them after app/start.ts). The routes take them through `lazy`, which the
 * router resolves beside the loaders, so nothing waits for them that would not wait for React DOM anyway.
 */
export interface RouteComponents {
  SignedInLayout: ComponentType;
  PaymentsRoute: ComponentType;
  DeepLinkedPayment: ComponentType;
}

let provide: (components: RouteComponents) => void = () => {};
const provided = new Promise<RouteComponents>((resolve) => {
  provide = resolve;
});

/** Called once by main.tsx, with the routes' components. */
export function provideRouteComponents(components: RouteComponents): void {
  provide(components);
}

/** A route's `lazy`: its component, once main.tsx has provided it. */
export function routeComponent(name: keyof RouteComponents) {
  return async () => ({ Component: (await provided)[name] });
}
