import { SIGNED_IN_HINT_COOKIE } from '@payments/shared/rules';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseListView } from '../features/payments/view/list-view.ts';
import { paymentsQueryKey } from '../features/payments/view/query-keys.ts';
import { createQueryClient } from '../lib/query-client.ts';
import { paymentsLoader, signedInLoader } from './route-loaders.ts';

/** Every request the loaders make, answered 401 for the session (signed out) and 503 for anything else. */
function serve() {
  const asked: URL[] = [];
  vi.stubGlobal('fetch', async (input: string) => {
    const url = new URL(input, 'http://app.test');
    asked.push(url);
    const status = url.pathname === '/api/session' ? 401 : 503;
    return new Response(
      JSON.stringify({ code: status === 401 ? 'unauthenticated' : 'upstream_unavailable' }),
      {
        status,
        headers: { 'Content-Type': 'application/problem+json' },
      },
    );
  });
  return asked;
}

const args = (path: string) => ({
  request: new Request(`http://app.test${path}`),
  params: {},
  context: undefined,
  unstable_pattern: '',
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('the route loaders', () => {
  it('send a signed-out visit to sign-in, with where it was going, after one session check', async () => {
    const asked = serve();
    const outcome = await signedInLoader(createQueryClient())(args('/?status=FAILED') as never).catch(
      (thrown: unknown) => thrown,
    );
    expect(outcome).toBeInstanceOf(Response);
    const redirect = outcome as Response;
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get('Location')).toBe('/sign-in?next=%2F%3Fstatus%3DFAILED');
    expect(asked.map((url) => url.pathname)).toEqual(['/api/session']);
  });

  it('start the first page of the view the address names, keyed on its filters, once signed in', async () => {
    // the BFF's readable hint that a session cookie is set
    vi.spyOn(document, 'cookie', 'get').mockReturnValue(`${SIGNED_IN_HINT_COOKIE}=1`);
    const asked = serve();
    const client = createQueryClient();
    const loader = paymentsLoader(client);
    await loader(args('/?company=acme-eu&status=FAILED&limit=25') as never);
    const view = parseListView(new URLSearchParams('company=acme-eu&status=FAILED&limit=25'));
    expect(client.getQueryState(paymentsQueryKey(view))).toBeDefined();
    const pages = asked.filter((url) => url.pathname === '/api/payments');
    expect(pages).toHaveLength(1);
    expect(Object.fromEntries(pages[0]?.searchParams ?? [])).toEqual({ status: 'FAILED', limit: '25' });
    // a later change of view starts its own list, once, and does not wait for it
    await loader(args('/?status=COMPLETED') as never);
    expect(asked.filter((url) => url.pathname === '/api/payments')).toHaveLength(2);
  });

  it('ask nothing of the list for a visitor the page knows is signed out', async () => {
    const asked = serve();
    await paymentsLoader(createQueryClient())(args('/?status=FAILED') as never);
    expect(asked).toEqual([]);
  });
});
