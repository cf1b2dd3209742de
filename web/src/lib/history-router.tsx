import {
  Children,
  createContext,
  isValidElement,
  type ReactNode,
  startTransition,
  use,
  useEffect,
  useLayoutEffect,
  useMemo,
  useState,
} from 'react';

/**
 * The app's router, over the browser's History API: routes by path, the address's query as state, Back and
 * Forward, each navigation a transition. The names and shapes are React Router's (BrowserRouter, Routes, Route,
 * Outlet, Navigate, useNavigate, useLocation, useSearchParams, useMatch), for the few things this app asks of it.
 */

export interface Location {
  pathname: string;
  search: string;
  hash: string;
  /** What the navigation to this history entry gave as `state`; null for an address typed or reloaded. */
  state: unknown;
}

type To = string | { pathname: string; search?: string };

interface NavigateOptions {
  /** Replaces the current history entry instead of adding one. */
  replace?: boolean;
  state?: unknown;
}

const listeners = new Set<() => void>();

function readLocation(): Location {
  const { pathname, search, hash } = window.location;
  return { pathname, search, hash, state: window.history.state };
}

function href(to: To): string {
  if (typeof to === 'string') return to;
  const { pathname, search = '' } = to;
  return search === '' || search.startsWith('?') ? `${pathname}${search}` : `${pathname}?${search}`;
}

function navigate(to: To, { replace = false, state = null }: NavigateOptions = {}): void {
  if (replace) window.history.replaceState(state, '', href(to));
  else window.history.pushState(state, '', href(to));
  for (const listener of listeners) listener();
}

const LocationContext = createContext<Location | null>(null);

/** Holds the location the app draws, following every navigation and every Back or Forward. */
export function BrowserRouter({ children }: { children: ReactNode }) {
  const [location, setLocation] = useState(readLocation);
  useLayoutEffect(() => {
    // A transition (a store read with useSyncExternalStore would render synchronously instead): while the next
    // view suspends (a lazy page, a deferred part), the current one stays on screen.
    const update = () => startTransition(() => setLocation(readLocation()));
    listeners.add(update);
    window.addEventListener('popstate', update);
    return () => {
      listeners.delete(update);
      window.removeEventListener('popstate', update);
    };
  }, []);
  return <LocationContext value={location}>{children}</LocationContext>;
}

export function useLocation(): Location {
  const location = use(LocationContext);
  if (location === null) throw new Error('useLocation: no <BrowserRouter> above');
  return location;
}

/** `navigate(to, { replace, state })`: the same function for every caller, so it never changes a hook's deps. */
export function useNavigate(): typeof navigate {
  return navigate;
}

/** The address's query; the same object until the query changes. */
export function useSearchParams(): readonly [URLSearchParams] {
  const { search } = useLocation();
  return [useMemo(() => new URLSearchParams(search), [search])];
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * Whether `pathname` matches `pattern` (`/payments/:paymentId`), as React Router matches it: case aside, with a
 * trailing slash or without; each `:name` stands for one segment, decoded.
 */
function matchPath(pattern: string, pathname: string): { params: Record<string, string> } | null {
  const names: string[] = [];
  const source = pattern
    .replace(/\/+$/, '')
    .replace(/:(\w+)|[.*+?^${}()|[\]\\]/g, (token, name: string | undefined) => {
      if (name === undefined) return `\\${token}`;
      names.push(name);
      return '([^/]+)';
    });
  const found = new RegExp(`^${source}/*$`, 'i').exec(pathname);
  if (!found) return null;
  return { params: Object.fromEntries(names.map((name, i) => [name, decode(found[i + 1] ?? '')])) };
}

export function useMatch(pattern: string): { params: Record<string, string> } | null {
  const { pathname } = useLocation();
  return useMemo(() => matchPath(pattern, pathname), [pattern, pathname]);
}

interface RouteProps {
  /**
   * A pattern for matchPath, or `*` for any path. None: a layout, drawn around its matching child route (a
   * fragment of routes is one, with nothing around).
   */
  path?: string;
  element?: ReactNode;
  children?: ReactNode;
}

/** One route of <Routes>, which reads its props: never drawn itself. */
export function Route(_props: RouteProps): ReactNode {
  return null;
}

const OutletElement = createContext<ReactNode>(null);
const OutletData = createContext<unknown>(undefined);

/** The element of the first route that matches, or undefined when none does. */
function matchRoutes(routes: ReactNode, pathname: string): ReactNode | undefined {
  for (const route of Children.toArray(routes)) {
    if (!isValidElement<RouteProps>(route)) continue;
    const { path, element, children } = route.props;
    if (path === undefined) {
      const outlet = matchRoutes(children, pathname);
      if (outlet !== undefined) return <OutletElement value={outlet}>{element ?? <Outlet />}</OutletElement>;
    } else if (path === '*' || matchPath(path, pathname)) {
      return element ?? null;
    }
  }
  return undefined;
}

/** Draws the first of its <Route>s that matches the location (a layout route with its matching child). */
export function Routes({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  return matchRoutes(children, pathname) ?? null;
}

/** In a layout route's element: where its matching child route is drawn, with `context` for useOutletContext. */
export function Outlet({ context }: { context?: unknown }) {
  return <OutletData value={context}>{use(OutletElement)}</OutletData>;
}

export function useOutletContext<Context>(): Context {
  return use(OutletData) as Context;
}

/** Navigates once drawn: a redirect. */
export function Navigate({ to, replace, state }: { to: To } & NavigateOptions) {
  const target = href(to);
  useEffect(() => {
    navigate(target, { replace, state });
  }, [target, replace, state]);
  return null;
}
