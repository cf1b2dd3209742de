import type { AppConfig } from '@payments/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { BrowserRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { serveEventStreams } from '../testing/event-streams.ts';
import { stubTableLayout } from '../testing/table-layout.ts';
import { DEFAULT_VIEW, type ListView } from '../view/list-view.ts';
import SearchResults from './search-results.tsx';

const config: AppConfig = {
  environment: 'sandbox',
  time_zone: 'UTC',
  amount_unit: 'minor',
  own_company_id: 'acme',
  companies: [
    { id: 'acme', name: 'Acme Holding', parent_id: null },
    { id: 'acme-eu', name: 'Acme Europe', parent_id: 'acme' },
  ],
  statuses: ['COMPLETED'],
  limits: { min: 1, max: 100, default: 50 },
  page_sizes: [25, 50, 100],
  freshness_poll_seconds: 60,
};

const view: ListView = { ...DEFAULT_VIEW, company: 'acme', group: true, currencies: ['EUR'], q: 'Hooli' };

function renderResults(onChange = vi.fn()) {
  const client = new QueryClient();
  render(
    <QueryClientProvider client={client}>
      <BrowserRouter>
        <SearchResults view={view} username="ana" config={config} summary={null} onChange={onChange} />
      </BrowserRouter>
    </QueryClientProvider>,
  );
  return onChange;
}

const drawnRows = () =>
  [...document.querySelectorAll('tbody tr[data-row-id]')].map(
    (row) => `${row.getAttribute('data-company-id')}/${row.getAttribute('data-row-id')}`,
  );
const headline = () => screen.getByTestId('search-status').textContent;
const progress = () => screen.getByTestId('search-progress').textContent;

beforeEach(stubTableLayout);

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('a search of the view', () => {
  it("asks the BFF's search with the view's filters and shows each match as it arrives, keyed by company and id", async () => {
    const streams = serveEventStreams();
    renderResults();
    await waitFor(() => expect(streams).toHaveLength(1));
    const [stream] = streams;
    expect(stream?.url.pathname).toBe('/api/payments/search');
    expect(Object.fromEntries(stream?.url.searchParams ?? [])).toEqual({
      q: 'Hooli',
      group: 'true',
      currency: 'EUR',
    });
    expect(stream?.headers.get('X-Company-Id')).toBe('acme');
    expect(stream?.headers.get('Accept')).toBe('text/event-stream');
    expect(headline()).toBe('Searching…');
    await stream?.send('start', { estimate: 40_000, companies: 2 });
    await stream?.send('match', { data: [{ id: 7, counterparty: 'Hooli' }], company_ids: ['acme'] });
    await stream?.send('progress', { read: 12_400 });
    expect(drawnRows()).toEqual(['acme/7']);
    expect(headline()).toBe('Searching… 1 match so far');
    expect(progress()).toBe('searched 12,400 of ~40,000 rows in 2 companies');
    // the same id in another company is another payment
    await stream?.send('match', { data: [{ id: 7, counterparty: 'Hooli' }], company_ids: ['acme-eu'] });
    await stream?.send('done', { read: 39_990, found: 2, complete: true });
    expect(drawnRows()).toEqual(['acme/7', 'acme-eu/7']);
    expect(headline()).toBe('2 matches');
    expect(progress()).toBe('searched 39,990 rows in 2 companies');
    expect(screen.queryByRole('button', { name: 'Stop' })).toBeNull();
  });

  it('Stop ends the walk and keeps what it found; Search again starts over', async () => {
    const streams = serveEventStreams();
    renderResults();
    await waitFor(() => expect(streams).toHaveLength(1));
    await streams[0]?.send('start', { estimate: null, companies: 1 });
    await streams[0]?.send('match', { data: [{ id: 'a' }], company_ids: ['acme'] });
    await streams[0]?.send('progress', { read: 500 });
    fireEvent.click(screen.getByRole('button', { name: 'Stop' }));
    await waitFor(() => expect(headline()).toBe('Stopped: 1 match'));
    expect(streams[0]?.signal?.aborted).toBe(true);
    expect(progress()).toBe('searched 500 rows');
    expect(drawnRows()).toEqual(['acme/a']);
    fireEvent.click(screen.getByRole('button', { name: 'Search again' }));
    await waitFor(() => expect(streams).toHaveLength(2));
    expect(headline()).toBe('Searching…');
  });

  it('says when nothing matched and how far it looked, with the way back to the list', async () => {
    const streams = serveEventStreams();
    const onChange = renderResults();
    await waitFor(() => expect(streams).toHaveLength(1));
    await streams[0]?.send('start', { estimate: 900, companies: 2 });
    await streams[0]?.send('done', { read: 912, found: 0, complete: true });
    const empty = screen.getByText(/No payment matches/);
    expect(empty.textContent).toBe(
      'No payment matches “Hooli” in this view: searched 912 rows in 2 companies.',
    );
    fireEvent.click(screen.getAllByRole('button', { name: 'Back to the full list' })[0] as HTMLElement);
    expect(onChange).toHaveBeenCalledWith({ q: null });
  });

  it('shows a failure as the list does, and one after matches beside them', async () => {
    const streams = serveEventStreams();
    renderResults();
    await waitFor(() => expect(streams).toHaveLength(1));
    await streams[0]?.send('error', { code: 'upstream_unavailable', status: 503, detail: 'down' });
    expect(screen.getByRole('alert').textContent).toContain('The payments service is not answering');
    fireEvent.click(screen.getAllByRole('button', { name: 'Search again' })[0] as HTMLElement);
    await waitFor(() => expect(streams).toHaveLength(2));
    await streams[1]?.send('match', { data: [{ id: 'b' }], company_ids: ['acme'] });
    await streams[1]?.send('error', { code: 'search_superseded', status: 409, detail: 'replaced' });
    expect(drawnRows()).toEqual(['acme/b']);
    expect(screen.getByRole('alert').textContent).toBe(
      'The search stopped: you started another search since, here or in another tab, and only your latest search runs. Search again to finish this one.',
    );
  });

  it('keeps the digits of ids beyond 2^53, which a float would merge into one row', async () => {
    const streams = serveEventStreams();
    renderResults();
    await waitFor(() => expect(streams).toHaveLength(1));
    await streams[0]?.sendRaw(
      'match',
      '{"data":[{"id":12345678901234567891},{"id":12345678901234567892}],"company_ids":["acme","acme"]}',
    );
    expect(drawnRows()).toEqual(['acme/12345678901234567891', 'acme/12345678901234567892']);
  });
});
