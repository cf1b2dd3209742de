import type { Summary } from '@payments/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { serveEventStreams } from '../testing/event-streams.ts';
import type { ListView } from '../view/list-view.ts';
import SummaryBar from './summary-bar.tsx';

const view: ListView = {
  company: 'acme-eu',
  group: true,
  statuses: [],
  amountMin: null,
  amountMax: null,
  dateFrom: '2026-10-01T00:00:00',
  dateTo: '2026-10-02T23:59:59',
  currencies: [],
  q: null,
  limit: 50,
  sort: null,
};

const summary: Summary = {
  count: 12_345,
  complete: true,
  by_status: [
    { status: 'COMPLETED', count: 12_000 },
    { status: 'FAILED', count: 344 },
    { status: null, count: 1 },
  ],
  totals: [
    { currency: 'EUR', count: 12_000, total: '1234567.891' },
    { currency: 'JPY', count: 344, total: '9000' },
  ],
  uninterpreted: 1,
  days: [
    { day: '2026-10-01', count: 12_000, totals: [{ currency: 'EUR', count: 12_000, total: '1234567.891' }] },
    { day: '2026-10-02', count: 345, totals: [{ currency: 'JPY', count: 344, total: '9000' }] },
  ],
  undated: 0,
  settled: [{ currency: 'EUR', count: 11_000, total: '1000000.5' }],
  as_of: '2026-10-03T10:42:05.000Z',
};

const noRetries = () => new QueryClient({ defaultOptions: { queries: { retry: false } } });

function renderBar(shown: ListView = view, client = noRetries()) {
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <SummaryBar view={shown} timeZone="UTC" settledStatuses={['COMPLETED']} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('SummaryBar', () => {
  it("asks for the view's figures as a stream, and shows the count so far while it runs", async () => {
    const counts = serveEventStreams();
    renderBar();
    await waitFor(() => expect(counts).toHaveLength(1));
    const [count] = counts;
    expect(count?.url.pathname).toBe('/api/payments/summary');
    expect(Object.fromEntries(count?.url.searchParams ?? [])).toEqual({
      date_from: '2026-10-01T00:00:00',
      date_to: '2026-10-02T23:59:59',
      group: 'true',
    });
    expect(count?.headers.get('Accept')).toBe('text/event-stream');
    expect(count?.headers.get('X-CSRF')).toBe('1');
    expect(count?.headers.get('X-Company-Id')).toBe('acme-eu');
    expect(screen.getByTestId('summary-progress').textContent).toBe('Counting… 0 payments so far');
    await count?.send('progress', { counted: 12_300 });
    expect(screen.getByTestId('summary-progress').textContent).toBe('Counting… 12,300 payments so far');
  });

  it('shows the count, the exact totals as money, and a count per status that links to its list', async () => {
    const counts = serveEventStreams();
    renderBar();
    await waitFor(() => expect(counts).toHaveLength(1));
    await counts[0]?.send('progress', { counted: 100 });
    await counts[0]?.send('summary', summary);
    expect(screen.getByTestId('summary-count').textContent).toBe('12,345 payments');
    const totals = screen.getByRole('list', { name: 'Totals per currency, all statuses' });
    // every digit the BFF summed, none rounded away by a float
    expect(totals.textContent).toContain('€1,234,567.891');
    expect(totals.textContent).toContain('¥9,000');
    expect(screen.getByTestId('summary-uninterpreted').textContent).toMatch(/^1 payment with an amount/);
    expect(screen.queryByText(/not complete/)).toBeNull();
    expect(screen.getByRole('link', { name: 'FAILED 344' }).getAttribute('href')).toBe(
      '/?company=acme-eu&group=true&status=FAILED&date_from=2026-10-01T00:00:00&date_to=2026-10-02T23:59:59',
    );
    // a payment without a status is counted but offers no filter
    expect(screen.queryByRole('link', { name: /no status/ })).toBeNull();
    expect(screen.getByRole('list', { name: 'Payments per status' }).textContent).toContain('no status 1');
  });

  it('says the figures are not complete when the count stopped at its limit', async () => {
    const counts = serveEventStreams();
    renderBar();
    await waitFor(() => expect(counts).toHaveLength(1));
    await counts[0]?.send('summary', { ...summary, complete: false, uninterpreted: 0 });
    expect(screen.getByRole('status').textContent).toContain('not complete');
    expect(screen.queryByTestId('summary-uninterpreted')).toBeNull();
  });

  it("the count of the view's status is current, and links to the list without that filter", async () => {
    const counts = serveEventStreams();
    renderBar({ ...view, statuses: ['FAILED'] });
    await waitFor(() => expect(counts).toHaveLength(1));
    await counts[0]?.send('summary', { ...summary, by_status: [{ status: 'FAILED', count: 344 }] });
    const failed = await screen.findByRole('link', { name: 'FAILED 344' });
    expect(failed.getAttribute('aria-current')).toBe('true');
    expect(failed.getAttribute('href')).toBe(
      '/?company=acme-eu&group=true&date_from=2026-10-01T00:00:00&date_to=2026-10-02T23:59:59',
    );
  });

  it('with several statuses, a plain click on one shows it alone, and the statuses are asked for as a list', async () => {
    const counts = serveEventStreams();
    renderBar({ ...view, statuses: ['AWAITING', 'FAILED'] });
    await waitFor(() => expect(counts).toHaveLength(1));
    expect(counts[0]?.url.searchParams.get('status')).toBe('AWAITING,FAILED');
    await counts[0]?.send('summary', {
      ...summary,
      by_status: [
        { status: 'AWAITING', count: 10 },
        { status: 'FAILED', count: 344 },
      ],
    });
    const failed = await screen.findByRole('link', { name: 'FAILED 344' });
    expect(failed.getAttribute('aria-current')).toBe('true');
    expect(failed.getAttribute('href')).toBe(
      '/?company=acme-eu&group=true&status=FAILED&date_from=2026-10-01T00:00:00&date_to=2026-10-02T23:59:59',
    );
    expect(screen.getByTestId('summary-totals').textContent).toMatch(/^AWAITING, FAILED:/);
  });

  it("under a search, asks for the figures of its matches only, kept apart from the whole view's", async () => {
    const counts = serveEventStreams();
    const client = noRetries();
    renderBar({ ...view, q: 'Hooli' }, client);
    await waitFor(() => expect(counts).toHaveLength(1));
    expect(counts[0]?.url.searchParams.get('q')).toBe('Hooli');
    await counts[0]?.send('summary', { ...summary, count: 7 });
    expect((await screen.findByTestId('summary-count')).textContent).toBe('7 payments');
    // the whole view's figures are another question, not answered by the search's
    cleanup();
    renderBar(view, client);
    await waitFor(() => expect(counts).toHaveLength(2));
    expect(counts[1]?.url.searchParams.has('q')).toBe(false);
  });

  it('shows why the count failed, and Retry counts again', async () => {
    const counts = serveEventStreams();
    renderBar();
    await waitFor(() => expect(counts).toHaveLength(1));
    await counts[0]?.send('progress', { counted: 200 });
    await counts[0]?.send('error', { code: 'upstream_unavailable', status: 503, detail: 'down' });
    expect(screen.getByRole('status').textContent).toContain(
      'The payments service is not answering right now',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(counts).toHaveLength(2));
    await counts[1]?.send('summary', summary);
    expect(screen.getByTestId('summary-count').textContent).toBe('12,345 payments');
  });

  it('a stream that ends without its figures is a failure, never a result', async () => {
    const counts = serveEventStreams();
    renderBar();
    await waitFor(() => expect(counts).toHaveLength(1));
    await counts[0]?.send('progress', { counted: 300 });
    await counts[0]?.end();
    expect(screen.getByRole('status').textContent).toContain('The count stopped before it finished');
    expect(screen.queryByTestId('summary-count')).toBeNull();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
  });

  it('shows a refused range with its reason and no Retry', async () => {
    vi.stubGlobal(
      'fetch',
      async () =>
        new Response(
          JSON.stringify({
            type: 'urn:x',
            title: 'Invalid parameter',
            status: 400,
            detail: 'date_to: must not be before date_from',
            code: 'invalid_parameter',
          }),
          { status: 400, headers: { 'Content-Type': 'application/problem+json' } },
        ),
    );
    renderBar();
    await waitFor(() =>
      expect(screen.getByRole('status').textContent).toContain('date_to: must not be before date_from'),
    );
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
  });

  it('says when the count began, what its totals add, and the settled totals beside them', async () => {
    const counts = serveEventStreams();
    renderBar();
    await waitFor(() => expect(counts).toHaveLength(1));
    await counts[0]?.send('summary', summary);
    expect(screen.getByTestId('summary-as-of').textContent).toMatch(/as of (3 Oct )?10:42$/);
    expect(screen.getByTestId('summary-totals').textContent).toMatch(
      /^All statuses:€1,234,567.891 in 12,000/,
    );
    expect(screen.getByTestId('summary-settled').textContent).toMatch(/^Completed:€1,000,000.50 in 11,000/);
    expect(screen.getByRole('list', { name: 'Completed, per currency' })).toBeTruthy();
  });

  it('with a status chosen, names it on the totals and gives no settled figure', async () => {
    const counts = serveEventStreams();
    renderBar({ ...view, statuses: ['FAILED'] });
    await waitFor(() => expect(counts).toHaveLength(1));
    await counts[0]?.send('summary', summary);
    expect(screen.getByTestId('summary-totals').textContent).toMatch(/^FAILED:/);
    expect(screen.queryByTestId('summary-settled')).toBeNull();
  });

  it('counts again past the cache, keeping the figures on screen until the new ones arrive', async () => {
    const counts = serveEventStreams();
    const client = noRetries();
    renderBar(view, client);
    await waitFor(() => expect(counts).toHaveLength(1));
    expect(counts[0]?.url.searchParams.has('fresh')).toBe(false);
    await counts[0]?.send('summary', summary);
    void client.refetchQueries({ queryKey: ['summary'] }).catch(() => undefined);
    await waitFor(() => expect(counts).toHaveLength(2));
    expect(counts[1]?.url.searchParams.get('fresh')).toBe('true');
    await counts[1]?.send('progress', { counted: 120 });
    expect(screen.getByTestId('summary-count').textContent).toBe('12,345 payments');
    expect(screen.getByTestId('summary-recount').textContent).toContain('counting again… 120');
    await counts[1]?.send('summary', { ...summary, count: 12_357, as_of: '2026-10-03T10:50:00.000Z' });
    // the stream is read a chunk a turn: on a busy machine the last event may land after the settling pause
    await waitFor(() => expect(screen.getByTestId('summary-count').textContent).toBe('12,357 payments'));
    expect(screen.queryByTestId('summary-recount')).toBeNull();
  });

  it('keeps the figures when counting again fails, and says so beside them', async () => {
    const counts = serveEventStreams();
    const client = noRetries();
    renderBar(view, client);
    await waitFor(() => expect(counts).toHaveLength(1));
    await counts[0]?.send('summary', summary);
    void client.refetchQueries({ queryKey: ['summary'] }).catch(() => undefined);
    await waitFor(() => expect(counts).toHaveLength(2));
    await counts[1]?.send('error', { code: 'summary_superseded', status: 409, detail: 'replaced' });
    expect(screen.getByTestId('summary-count').textContent).toBe('12,345 payments');
    expect(
      screen.getByText(
        'Could not count again: you asked for other figures since, here or in another tab, and only your latest count runs. Retry to count these again.',
      ),
    ).toBeTruthy();
  });

  it('says nothing of a company the user may not see: the list names it, once', async () => {
    vi.stubGlobal(
      'fetch',
      async () =>
        new Response(
          JSON.stringify({ type: 'x', title: 'x', status: 403, detail: 'no', code: 'forbidden_company' }),
          { status: 403, headers: { 'Content-Type': 'application/problem+json' } },
        ),
    );
    renderBar();
    await waitFor(() => expect(screen.queryByTestId('summary-progress')).toBeNull());
    expect(screen.queryByRole('region', { name: 'Summary' })).toBeNull();
    expect(screen.queryByText(/access/)).toBeNull();
  });

  it('asks nothing for a range that ends before it starts: the date field says why, once', async () => {
    const counts = serveEventStreams();
    renderBar({ ...view, dateFrom: '2026-05-02T00:00:00', dateTo: '2026-05-01T23:59:59' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(counts).toHaveLength(0);
    expect(screen.queryByRole('region', { name: 'Summary' })).toBeNull();
  });
});

describe("SummaryBar's money per status and per company", () => {
  it("shows every status's money, and a group's line per company linking to its own view", async () => {
    const breakdown: Summary = {
      ...summary,
      by_status_totals: [
        {
          status: 'COMPLETED',
          count: 12_000,
          totals: [{ currency: 'EUR', count: 12_000, total: '1234567.891' }],
        },
        { status: 'FAILED', count: 344, totals: [{ currency: 'JPY', count: 344, total: '9000' }] },
      ],
      companies: [
        {
          company_id: 'acme-eu',
          count: 12_000,
          totals: [{ currency: 'EUR', count: 12_000, total: '1234567.891' }],
          by_status_totals: [],
          uninterpreted: 0,
        },
        {
          company_id: 'acme-eu-de',
          count: 345,
          totals: [{ currency: 'JPY', count: 344, total: '9000' }],
          by_status_totals: [],
          uninterpreted: 1,
        },
      ],
    };
    const counts = serveEventStreams();
    render(
      <QueryClientProvider client={noRetries()}>
        <MemoryRouter>
          <SummaryBar
            view={view}
            timeZone="UTC"
            settledStatuses={['COMPLETED']}
            companyNames={new Map([['acme-eu-de', 'ACME Germany']])}
          />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    await waitFor(() => expect(counts).toHaveLength(1));
    await counts[0]?.send('summary', breakdown);
    expect(screen.queryByTestId('summary-breakdown')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Per status and company' }));
    const failed = screen.getByTestId('summary-status-totals-FAILED');
    expect(failed.textContent).toContain('FAILED:');
    expect(failed.textContent).toContain('9,000');
    const table = screen.getByRole('table', { name: 'Figures per company' });
    const links = [...table.querySelectorAll('a')];
    expect(links.map((a) => a.textContent)).toEqual(['acme-eu', 'ACME Germany']);
    expect(links[1]?.getAttribute('href')).toBe(
      '/?company=acme-eu-de&date_from=2026-10-01T00:00:00&date_to=2026-10-02T23:59:59',
    );
  });
});
