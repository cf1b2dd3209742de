import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ListView } from '../view/list-view.ts';
import { Freshness } from './freshness.tsx';
import { RefreshButton } from './refresh-button.tsx';
import { usePaymentRows } from './use-payment-rows.ts';

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

const json = (body: unknown) =>
  new Response(JSON.stringify(body), { headers: { 'Content-Type': 'application/json' } });

/** The loaded rows of the view, as the table would list them, next to the button under test. */
function ListWithRefresh({ shown = view }: { shown?: ListView }) {
  const list = usePaymentRows(shown);
  const ids = list.rows.map((row) => String(row.id));
  return (
    <div>
      <output data-testid="rows">{ids.join(',')}</output>
      <button type="button" onClick={list.fetchNextPage}>
        More
      </button>
      <RefreshButton view={shown} />
    </div>
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('RefreshButton', () => {
  it('starts a new pagination view from the first page without a cursor, the rows staying until it is in', async () => {
    // The BFF at the network boundary; after the first two pages, new payments arrive at the top.
    let firstPage = { data: [{ id: 'a' }, { id: 'b' }], next_cursor: 'n1', has_more: true };
    const cursors: Array<string | null> = [];
    let hold: Promise<void> = Promise.resolve();
    vi.stubGlobal('fetch', async (input: string) => {
      const cursor = new URL(input, 'http://app.test').searchParams.get('cursor');
      cursors.push(cursor);
      await hold;
      return json(
        cursor === null ? firstPage : { data: [{ id: 'c' }, { id: 'd' }], next_cursor: 'n2', has_more: true },
      );
    });
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <ListWithRefresh />
      </QueryClientProvider>,
    );
    const rows = screen.getByTestId('rows');
    await waitFor(() => expect(rows.textContent).toBe('a,b'));
    fireEvent.click(screen.getByRole('button', { name: 'More' }));
    await waitFor(() => expect(rows.textContent).toBe('a,b,c,d'));
    expect(cursors).toEqual([null, 'n1']);

    firstPage = { data: [{ id: 'z' }, { id: 'a' }], next_cursor: 'm1', has_more: true };
    let answer = () => {};
    hold = new Promise((resolve) => {
      answer = resolve;
    });
    fireEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(cursors).toEqual([null, 'n1', null]));
    // asked, not answered yet: the rows on screen are still there
    expect(rows.textContent).toBe('a,b,c,d');
    answer();
    await waitFor(() => expect(rows.textContent).toBe('z,a'));
    // let any further page requests of a "refetch every page" settle before counting
    await act(() => new Promise((resolve) => setTimeout(resolve, 30)));
    expect(cursors).toEqual([null, 'n1', null]);
    expect(rows.textContent).toBe('z,a');
  });

  it('keeps the rows when the first page fails, and says it did not refresh', async () => {
    let fail = false;
    vi.stubGlobal('fetch', async () =>
      fail
        ? new Response(
            JSON.stringify({
              type: 'x',
              title: 'x',
              status: 503,
              detail: 'down',
              code: 'upstream_unavailable',
            }),
            {
              status: 503,
              headers: { 'Content-Type': 'application/problem+json' },
            },
          )
        : json({ data: [{ id: 'a' }], next_cursor: null, has_more: false }),
    );
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <ListWithRefresh />
      </QueryClientProvider>,
    );
    await waitFor(() => expect(screen.getByTestId('rows').textContent).toBe('a'));
    fail = true;
    fireEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(screen.getByText(/^Not refreshed: The payments service/)).toBeTruthy());
    expect(screen.getByTestId('rows').textContent).toBe('a');
  });

  it("says a sorted view's age, polls nothing, and its Refresh asks for the view sorted anew", async () => {
    const sorted: ListView = { ...view, sort: 'amount:desc' };
    const asked: URLSearchParams[] = [];
    let asOf = '2026-05-01T08:00:00Z';
    let ids = ['a', 'b'];
    vi.stubGlobal('fetch', async (input: string) => {
      asked.push(new URL(input, 'http://app.test').searchParams);
      return json({ data: ids.map((id) => ({ id })), next_cursor: null, has_more: false, as_of: asOf });
    });
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <ListWithRefresh shown={sorted} />
        <Freshness view={sorted} pollSeconds={0.01} timeZone="UTC" />
      </QueryClientProvider>,
    );
    const age = () => screen.queryByTestId('freshness')?.textContent;
    await waitFor(() => expect(age()).toBe('Sorted as of 1 May 08:00'));
    // a poll every 10 ms would have asked by now: a sorted view's first page says nothing of newer payments
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(asked.length).toBe(1);
    expect(asked[0]?.get('fresh')).toBeNull();

    asOf = '2026-05-01T09:30:00Z';
    ids = ['c', 'a', 'b'];
    fireEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(screen.getByTestId('rows').textContent).toBe('c,a,b'));
    expect(age()).toBe('Sorted as of 1 May 09:30');
    expect(asked.map((query) => [query.get('sort'), query.get('fresh'), query.get('cursor')])).toEqual([
      ['amount:desc', null, null],
      ['amount:desc', 'true', null],
    ]);
  });
});
