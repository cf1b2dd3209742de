import type { Summary } from '@payments/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { serveEventStreams } from '../testing/event-streams.ts';
import type { ListView } from '../view/list-view.ts';
import SummaryBar from './summary-bar.tsx';

const view: ListView = {
  company: 'acme-eu',
  group: true,
  status: null,
  dateFrom: '2026-10-01T00:00:00',
  dateTo: '2026-10-02T23:59:59',
  currencies: [],
  q: null,
  limit: 50,
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
};

function renderBar(onStatus = vi.fn(), shown: ListView = view) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <SummaryBar view={shown} timeZone="UTC" onStatus={onStatus} />
    </QueryClientProvider>,
  );
  return onStatus;
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

  it('shows the count, the exact totals as money, and a count per status that filters by it', async () => {
    const counts = serveEventStreams();
    const onStatus = renderBar();
    await waitFor(() => expect(counts).toHaveLength(1));
    await counts[0]?.send('progress', { counted: 100 });
    await counts[0]?.send('summary', summary);
    expect(screen.getByTestId('summary-count').textContent).toBe('12,345 payments');
    const totals = screen.getByRole('list', { name: 'Totals per currency' });
    // every digit the BFF summed, none rounded away by a float
    expect(totals.textContent).toContain('€1,234,567.891');
    expect(totals.textContent).toContain('¥9,000');
    expect(screen.getByTestId('summary-uninterpreted').textContent).toMatch(/^1 payment with an amount/);
    expect(screen.queryByText(/not complete/)).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'FAILED 344' }));
    expect(onStatus).toHaveBeenCalledWith('FAILED');
    // a payment without a status is counted but offers no filter
    expect(screen.queryByRole('button', { name: /no status/ })).toBeNull();
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

  it('a pressed status count removes its filter again', async () => {
    const counts = serveEventStreams();
    const onStatus = renderBar(vi.fn(), { ...view, status: 'FAILED' });
    await waitFor(() => expect(counts).toHaveLength(1));
    await counts[0]?.send('summary', { ...summary, by_status: [{ status: 'FAILED', count: 344 }] });
    const failed = screen.getByRole('button', { name: 'FAILED 344' });
    expect(failed.getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(failed);
    expect(onStatus).toHaveBeenCalledWith(null);
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
});
