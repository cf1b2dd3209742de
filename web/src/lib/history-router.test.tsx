import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { lazy, type ReactNode, Suspense } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  BrowserRouter,
  Navigate,
  Outlet,
  Route,
  Routes,
  useLocation,
  useMatch,
  useNavigate,
  useOutletContext,
  useSearchParams,
} from './history-router.tsx';

beforeEach(() => window.history.replaceState(null, '', '/'));
afterEach(cleanup);

/** Where the app is, as the router tells it: path, query and the entry's state. */
function Where() {
  const { pathname, search, state } = useLocation();
  return <output data-testid="where">{`${pathname}${search} ${JSON.stringify(state)}`}</output>;
}
const where = () => screen.getByTestId('where').textContent;

let navigate: ReturnType<typeof useNavigate> = () => {};
function Navigator() {
  navigate = useNavigate();
  return null;
}

function renderAt(url: string, routes: ReactNode) {
  window.history.replaceState(null, '', url);
  render(
    <BrowserRouter>
      <Navigator />
      <Suspense fallback={<p>loading</p>}>
        <Routes>{routes}</Routes>
      </Suspense>
    </BrowserRouter>,
  );
}

function Layout() {
  return (
    <div data-testid="layout">
      <Outlet context="from the layout" />
    </div>
  );
}

function Child({ name }: { name: string }) {
  return <p>{`${name}, ${useOutletContext<string>()}`}</p>;
}

function Param() {
  const match = useMatch('/payments/:paymentId');
  return <p data-testid="param">{match === null ? 'none' : match.params.paymentId}</p>;
}

/** Every search params object the component was given, in order. */
const seenParams: URLSearchParams[] = [];
function Params() {
  const [params] = useSearchParams();
  seenParams.push(params);
  return <p data-testid="status">{params.get('status')}</p>;
}

/** The browser's Back: the entry changes first, its popstate event comes after. */
async function back(expected: string) {
  window.history.back();
  await waitFor(() => expect(where()).toContain(expected));
}

describe('the history router', () => {
  it('draws the first route that matches; a layout route draws its matching child in its outlet', () => {
    const routes = [
      <Route key="a" path="/sign-in" element={<p>sign-in</p>} />,
      <Route key="b" element={<Layout />}>
        <Route path="/" element={<Child name="list" />} />
        <Route path="/payments/:paymentId" element={<Child name="drawer" />} />
        <Route path="*" element={null} />
      </Route>,
    ];
    renderAt('/sign-in?next=%2F', routes);
    expect(screen.getByText('sign-in')).toBeTruthy();
    expect(screen.queryByTestId('layout')).toBeNull();
    cleanup();
    renderAt('/payments/7', routes);
    expect(screen.getByText('drawer, from the layout')).toBeTruthy();
    cleanup();
    renderAt('/nowhere', routes);
    expect(screen.getByTestId('layout').textContent).toBe('');
  });

  it('matches a pattern case aside and with a trailing slash, and gives its params decoded', () => {
    const routes = <Route path="*" element={<Param />} />;
    renderAt(`/Payments/${encodeURIComponent('pay/1 €')}/`, routes);
    expect(screen.getByTestId('param').textContent).toBe('pay/1 €');
    cleanup();
    renderAt('/payments/%E0%A4%A', routes);
    expect(screen.getByTestId('param').textContent).toBe('%E0%A4%A');
    cleanup();
    renderAt('/payments/7/more', routes);
    expect(screen.getByTestId('param').textContent).toBe('none');
  });

  it('adds a history entry per navigation: Back and Forward restore each location with its state', async () => {
    renderAt('/', <Route path="*" element={<Where />} />);
    const entries = window.history.length;
    act(() => navigate({ pathname: '/', search: '?status=FAILED' }));
    act(() => navigate('/payments/7?status=FAILED', { state: { company: 'acme-eu' } }));
    expect(where()).toBe('/payments/7?status=FAILED {"company":"acme-eu"}');
    expect(window.history.length).toBe(entries + 2);
    await back('/?status=FAILED null');
    await back('/ null');
    window.history.forward();
    await waitFor(() => expect(where()).toBe('/?status=FAILED null'));
    window.history.forward();
    await waitFor(() => expect(where()).toBe('/payments/7?status=FAILED {"company":"acme-eu"}'));
  });

  it('replaces the current entry when asked to', async () => {
    renderAt('/', <Route path="*" element={<Where />} />);
    act(() => navigate('/?limit=25'));
    const entries = window.history.length;
    act(() => navigate({ pathname: '/', search: 'limit=100' }, { replace: true }));
    expect(where()).toBe('/?limit=100 null');
    expect(window.history.length).toBe(entries);
    await back('/ null');
  });

  it('gives the same search params object until the query changes', () => {
    seenParams.length = 0;
    const seen = seenParams;
    renderAt('/?status=PENDING', <Route path="*" element={<Params />} />);
    act(() => navigate('/?status=PENDING', { state: { company: 'acme' } }));
    expect(seen.at(-1)).toBe(seen[0]);
    act(() => navigate('/?status=COMPLETED'));
    expect(screen.getByTestId('status').textContent).toBe('COMPLETED');
    expect(seen.at(-1)).not.toBe(seen[0]);
  });

  it('redirects with <Navigate>, replacing the entry', async () => {
    renderAt(
      '/old',
      <>
        <Route path="/old" element={<Navigate to="/new?from=old" replace />} />
        <Route path="*" element={<Where />} />
      </>,
    );
    await waitFor(() => expect(where()).toBe('/new?from=old null'));
    expect(window.location.pathname).toBe('/new');
  });

  it('navigates as a transition: the current view stays on screen while the next one loads', async () => {
    let loaded: (module: { default: () => ReactNode }) => void = () => {};
    const Slow = lazy(() => new Promise<{ default: () => ReactNode }>((resolve) => (loaded = resolve)));
    renderAt(
      '/',
      <>
        <Route path="/slow" element={<Slow />} />
        <Route path="*" element={<p>the list</p>} />
      </>,
    );
    act(() => navigate('/slow'));
    expect(screen.getByText('the list')).toBeTruthy();
    expect(screen.queryByText('loading')).toBeNull();
    await act(async () => loaded({ default: () => <p>the slow page</p> }));
    expect(screen.getByText('the slow page')).toBeTruthy();
  });
});
