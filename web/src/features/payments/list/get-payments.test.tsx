import { QueryClient, QueryClientProvider, useInfiniteQuery } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ListView } from '../view/list-view.ts';
import { paymentsQueryKey } from '../view/query-keys.ts';
import { paymentsQueryOptions } from './get-payments.ts';
import { useSortProgress } from './sort-progress.ts';

const view: ListView = {
  company: 'acme',
  group: false,
  statuses: [],
  amountMin: null,
  amountMax: null,
  dateFrom: null,
  dateTo: null,
  currencies: [],
  q: null,
  limit: 2,
  sort: null,
};

interface Call {
  url: URL;
  headers: Headers;
  signal: AbortSignal | null;
}

/** Stands in for the BFF at the network boundary: answers each call with `answer` and records it. */
function serve(answer: (call: Call) => Response | Promise<Response>): Call[] {
  const calls: Call[] = [];
  vi.stubGlobal('fetch', async (input: string, init: RequestInit) => {
    const call = {
      url: new URL(input, 'http://app.test'),
      headers: new Headers(init.headers),
      signal: init.signal ?? null,
    };
    calls.push(call);
    return answer(call);
  });
  return calls;
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

function wrapper() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
}

afterEach(() => vi.unstubAllGlobals());

describe('payments query options', () => {
  it('keys the pagination session on company, group, statuses, the range, currencies, amounts, limit and order, not the search', () => {
    const filtered: ListView = {
      company: 'c',
      group: true,
      statuses: ['AWAITING', 'FAILED'],
      dateFrom: '2026-01-01T00:00:00',
      dateTo: '2026-01-31T23:59:59',
      currencies: ['EUR', 'USD'],
      amountMin: '100',
      amountMax: '99999.5',
      q: null,
      limit: 25,
      sort: null,
    };
    const key = [
      'payments',
      'c',
      true,
      'AWAITING,FAILED',
      '2026-01-01T00:00:00',
      '2026-01-31T23:59:59',
      'EUR,USD',
      '100',
      '99999.5',
      25,
      null,
    ];
    expect(paymentsQueryKey(filtered)).toEqual(key);
    expect(paymentsQueryKey({ ...filtered, q: 'Hooli' })).toEqual(key);
    expect(paymentsQueryKey({ ...filtered, sort: 'amount:asc' })).toEqual([
      ...key.slice(0, -1),
      'amount:asc',
    ]);
  });

  it('follows next_cursor and says there is no next page at the end', () => {
    const { getNextPageParam } = paymentsQueryOptions(view);
    expect(getNextPageParam({ data: [], next_cursor: 'abc', has_more: true }, [], null, [])).toBe('abc');
    expect(getNextPageParam({ data: [], next_cursor: null, has_more: false }, [], null, [])).toBeUndefined();
  });

  it('sends the filters, the company header and the anti-forgery header, then the cursor', async () => {
    const calls = serve((call) =>
      call.url.searchParams.has('cursor')
        ? json({ data: [{ id: 'c' }], next_cursor: null, has_more: false })
        : json({ data: [{ id: 'a' }, { id: 'b' }], next_cursor: 'n1', has_more: true }),
    );
    const failed = {
      ...view,
      statuses: ['AWAITING', 'FAILED'],
      currencies: ['EUR', 'USD'],
      amountMin: '-5',
      amountMax: '120.50',
    };
    const { result } = renderHook(() => useInfiniteQuery(paymentsQueryOptions(failed)), {
      wrapper: wrapper(),
    });
    await waitFor(() => expect(result.current.data?.pages).toHaveLength(1));
    await act(() => result.current.fetchNextPage());
    expect(calls.map((c) => c.url.search)).toEqual([
      '?limit=2&status=AWAITING%2CFAILED&currency=EUR%2CUSD&amount_min=-5&amount_max=120.50',
      '?limit=2&status=AWAITING%2CFAILED&currency=EUR%2CUSD&amount_min=-5&amount_max=120.50&cursor=n1',
    ]);
    expect(calls[0]?.headers.get('X-Company-Id')).toBe('acme');
    expect(calls[0]?.headers.get('X-CSRF')).toBe('1');
    // reading `data` and `hasNextPage` in waitFor subscribes the hook to them (Query tracks what is read)
    await waitFor(() => expect(result.current.data?.pages).toHaveLength(2));
    expect(result.current.hasNextPage).toBe(false);
  });

  it('asks for the order the view names, and leaves the default order out', async () => {
    const calls = serve(() => json({ data: [{ id: 'a' }], next_cursor: null, has_more: false }));
    const sorted = renderHook(
      () => useInfiniteQuery(paymentsQueryOptions({ ...view, sort: 'amount:desc' })),
      {
        wrapper: wrapper(),
      },
    );
    await waitFor(() => expect(sorted.result.current.data?.pages).toHaveLength(1));
    const plain = renderHook(() => useInfiniteQuery(paymentsQueryOptions(view)), { wrapper: wrapper() });
    await waitFor(() => expect(plain.result.current.data?.pages).toHaveLength(1));
    expect(calls.map((c) => c.url.search)).toEqual(['?limit=2&sort=amount%3Adesc', '?limit=2']);
  });

  it("reads a sorted view's first page from the stream of the BFF's walk, its progress kept for the footer", async () => {
    const sortedView: ListView = { ...view, sort: 'amount:desc' };
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const seen: unknown[] = [];
    client.getQueryCache().subscribe((event) => {
      if (event.type === 'updated' && event.query.queryKey[0] === 'sort-progress')
        seen.push(event.query.state.data);
    });
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const calls = serve((call) => {
      if (call.url.searchParams.has('cursor'))
        return json({ data: [{ id: 'c' }], next_cursor: null, has_more: false });
      const encoder = new TextEncoder();
      const body = new ReadableStream<Uint8Array>({
        async start(controller) {
          controller.enqueue(encoder.encode('event: progress\ndata: {"sorted":100,"estimate":250}\n\n'));
          controller.enqueue(encoder.encode('event: progress\ndata: {"sorted":200,"estimate":250}\n\n'));
          await released;
          const page = { data: [{ id: 'a' }, { id: 'b' }], next_cursor: 's~2', has_more: true, total: 250 };
          controller.enqueue(encoder.encode(`event: page\ndata: ${JSON.stringify(page)}\n\n`));
          controller.close();
        },
      });
      return new Response(body, { headers: { 'Content-Type': 'text/event-stream' } });
    });
    const { result } = renderHook(
      () => ({
        list: useInfiniteQuery(paymentsQueryOptions(sortedView)),
        progress: useSortProgress(sortedView),
      }),
      { wrapper: ({ children }) => <QueryClientProvider client={client}>{children}</QueryClientProvider> },
    );
    await waitFor(() => expect(result.current.progress).toEqual({ sorted: 200, estimate: 250 }));
    expect(result.current.list.isPending).toBe(true);
    act(release);
    await waitFor(() =>
      expect(result.current.list.data?.pages[0]?.data.map((p) => p.id)).toEqual(['a', 'b']),
    );
    // the walk has ended: nothing says "sorting" any more
    await waitFor(() => expect(result.current.progress).toBeNull());
    expect(seen).toEqual([{ sorted: 100, estimate: 250 }, { sorted: 200, estimate: 250 }, null]);
    expect(calls[0]?.headers.get('Accept')).toBe('text/event-stream');
    // a next page is cut from the sorted rows: plain JSON, and no progress
    await act(() => result.current.list.fetchNextPage());
    expect(calls[1]?.url.searchParams.get('cursor')).toBe('s~2');
    expect(calls[1]?.headers.get('Accept')).toBe('application/json');
    await waitFor(() => expect(result.current.list.data?.pages[1]?.data.map((p) => p.id)).toEqual(['c']));
  });

  it("takes the BFF's plain page when it sorted the view before, and a streamed error as the request's", async () => {
    const calls = serve(() => json({ data: [{ id: 'a' }], next_cursor: null, has_more: false }));
    const ready = renderHook(() => useInfiniteQuery(paymentsQueryOptions({ ...view, sort: 'amount:asc' })), {
      wrapper: wrapper(),
    });
    await waitFor(() => expect(ready.result.current.data?.pages[0]?.data).toHaveLength(1));
    expect(calls[0]?.headers.get('Accept')).toBe('text/event-stream');
    serve(
      () =>
        new Response(
          'event: progress\ndata: {"sorted":100,"estimate":null}\n\nevent: error\ndata: {"code":"sort_too_large","status":422,"detail":"too many to sort"}\n\n',
          { headers: { 'Content-Type': 'text/event-stream' } },
        ),
    );
    const failing: ListView = { ...view, sort: 'counterparty:asc' };
    const failed = renderHook(
      () => ({ list: useInfiniteQuery(paymentsQueryOptions(failing)), progress: useSortProgress(failing) }),
      { wrapper: wrapper() },
    );
    await waitFor(() => expect(failed.result.current.list.isError).toBe(true));
    // a failed walk leaves nothing saying "sorting"
    await waitFor(() => expect(failed.result.current.progress).toBeNull());
    expect(failed.result.current.list.error).toMatchObject({
      status: 422,
      code: 'sort_too_large',
      detail: 'too many to sort',
    });
    // a stream cut before its page is an error too, not an empty list
    serve(
      () =>
        new Response('event: progress\ndata: {"sorted":100}\n\n', {
          headers: { 'Content-Type': 'text/event-stream' },
        }),
    );
    const cut = renderHook(() => useInfiniteQuery(paymentsQueryOptions({ ...view, sort: 'status:asc' })), {
      wrapper: wrapper(),
    });
    await waitFor(() => expect(cut.result.current.isError).toBe(true));
    expect(cut.result.current.error).toMatchObject({ code: 'interrupted' });
  });

  it('aborts the request of the old view when the filters change', async () => {
    const calls = serve(
      (call) =>
        new Promise<Response>((resolve, reject) => {
          if (call.url.searchParams.get('status') === 'FAILED') {
            resolve(json({ data: [{ id: 'f' }], next_cursor: null, has_more: false }));
            return;
          }
          call.signal?.addEventListener('abort', () => reject(call.signal?.reason));
        }),
    );
    const { result, rerender } = renderHook(
      (props: ListView) => useInfiniteQuery(paymentsQueryOptions(props)),
      {
        wrapper: wrapper(),
        initialProps: view,
      },
    );
    await waitFor(() => expect(calls).toHaveLength(1));
    rerender({ ...view, statuses: ['FAILED'] });
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(calls[0]?.signal?.aborted).toBe(true);
    expect(result.current.data?.pages[0]?.data[0]?.id).toBe('f');
  });

  it('after a failed page, keeps the loaded rows and retries only the failed cursor', async () => {
    let failNext = true;
    const calls = serve((call) => {
      if (!call.url.searchParams.has('cursor'))
        return json({ data: [{ id: 'a' }], next_cursor: 'n1', has_more: true });
      if (failNext) {
        failNext = false;
        return json(
          { type: 'x', title: 't', status: 503, detail: 'down', code: 'upstream_unavailable' },
          503,
        );
      }
      return json({ data: [{ id: 'b' }], next_cursor: null, has_more: false });
    });
    const { result } = renderHook(() => useInfiniteQuery(paymentsQueryOptions(view)), { wrapper: wrapper() });
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    await act(() => result.current.fetchNextPage());
    await waitFor(() => expect(result.current.isFetchNextPageError).toBe(true));
    expect(result.current.data?.pages.flatMap((p) => p.data.map((r) => r.id))).toEqual(['a']);
    await act(() => result.current.fetchNextPage());
    // reading `data` and `hasNextPage` in waitFor subscribes the hook to them (Query tracks what is read)
    await waitFor(() => expect(result.current.data?.pages).toHaveLength(2));
    expect(result.current.hasNextPage).toBe(false);
    expect(result.current.data?.pages.flatMap((p) => p.data.map((r) => r.id))).toEqual(['a', 'b']);
    expect(calls.map((c) => c.url.searchParams.get('cursor'))).toEqual([null, 'n1', 'n1']);
  });

  it('does not refetch loaded pages when the window regains focus, even once they are stale', async () => {
    const calls = serve((call) =>
      call.url.searchParams.has('cursor')
        ? json({ data: [{ id: 'b' }], next_cursor: null, has_more: false })
        : json({ data: [{ id: 'a' }], next_cursor: 'n1', has_more: true }),
    );
    // a client with Query's defaults (focus refetch on), so only the payments options can keep it quiet
    const client = new QueryClient();
    const { result } = renderHook(() => useInfiniteQuery(paymentsQueryOptions(view)), {
      wrapper: ({ children }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>,
    });
    await waitFor(() => expect(result.current.data?.pages).toHaveLength(1));
    await act(() => result.current.fetchNextPage());
    await waitFor(() => expect(result.current.data?.pages).toHaveLength(2));
    expect(calls).toHaveLength(2);

    const regainFocus = async () => {
      await act(async () => {
        // Query's focus manager listens for visibilitychange; focus is what a user switching back fires too
        document.dispatchEvent(new Event('visibilitychange', { bubbles: true }));
        window.dispatchEvent(new Event('focus'));
        await new Promise((resolve) => setTimeout(resolve, 20));
      });
    };
    await regainFocus();
    // marking the pages stale without refetching: the focus refetch would then have every reason to run
    await act(() => client.invalidateQueries({ queryKey: paymentsQueryKey(view), refetchType: 'none' }));
    await regainFocus();
    expect(calls).toHaveLength(2);
    expect(result.current.isFetching).toBe(false);
    expect(result.current.data?.pages.flatMap((p) => p.data.map((r) => r.id))).toEqual(['a', 'b']);
  });

  it('refuses an envelope that breaks its rules instead of showing it', async () => {
    serve(() => json({ data: [], next_cursor: 'x', has_more: false }));
    const { result } = renderHook(() => useInfiniteQuery(paymentsQueryOptions(view)), { wrapper: wrapper() });
    await waitFor(() => expect(result.current.isError).toBe(true));
    expect(result.current.error).toMatchObject({ code: 'bad_response' });
  });

  it("asks for a group's range with date_to and group=true, and keeps the company of each row", async () => {
    const calls = serve(() =>
      json({ data: [{ id: 'a' }, { id: 'b' }], next_cursor: null, has_more: false, company_ids: ['x', 'y'] }),
    );
    const group = { ...view, group: true, dateFrom: '2026-10-01T00:00:00', dateTo: '2026-10-31T23:59:59' };
    const { result } = renderHook(() => useInfiniteQuery(paymentsQueryOptions(group)), {
      wrapper: wrapper(),
    });
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(Object.fromEntries(calls[0]?.url.searchParams ?? [])).toEqual({
      limit: '2',
      date_from: '2026-10-01T00:00:00',
      date_to: '2026-10-31T23:59:59',
      group: 'true',
    });
    expect(result.current.data?.pages[0]?.company_ids).toEqual(['x', 'y']);
  });

  it('refuses company_ids that do not name one company per row', async () => {
    serve(() =>
      json({ data: [{ id: 'a' }, { id: 'b' }], next_cursor: null, has_more: false, company_ids: ['x'] }),
    );
    const { result } = renderHook(() => useInfiniteQuery(paymentsQueryOptions({ ...view, group: true })), {
      wrapper: wrapper(),
    });
    await waitFor(() => expect(result.current.isError).toBe(true));
    expect(result.current.error).toMatchObject({
      code: 'bad_response',
      detail: expect.stringContaining('company_ids'),
    });
  });
});
