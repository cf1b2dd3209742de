import type { AppConfig } from '@payments/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { BrowserRouter } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadDeferredParts } from '../load-deferred-parts.ts';
import { stubTableLayout } from '../testing/table-layout.ts';
import { DEFAULT_VIEW, type ListView } from '../view/list-view.ts';
import { PaymentsList } from './payments-list.tsx';

const config: AppConfig = {
  environment: 'sandbox',
  time_zone: 'UTC',
  amount_unit: 'minor',
  own_company_id: 'acme',
  companies: [
    { id: 'acme', name: 'Acme Holding', parent_id: null },
    { id: 'acme-eu', name: 'Acme Europe', parent_id: 'acme' },
    { id: 'acme-us', name: 'Acme Americas', parent_id: 'acme' },
  ],
  statuses: ['COMPLETED'],
  limits: { min: 1, max: 100, default: 50 },
  page_sizes: [25, 50, 100],
  freshness_poll_seconds: 60,
};

interface Page {
  data: Array<{ id: string | number; [field: string]: unknown }>;
  next_cursor: string | null;
  has_more: boolean;
  company_ids?: string[];
}

// The panels (empty, failed) come with the deferred chunk: in before the tests, as it is soon after a first view.
beforeAll(async () => {
  await loadDeferredParts();
}, 30_000);

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': status === 200 ? 'application/json' : 'application/problem+json' },
  });

/**
 * The BFF's list at the network boundary: `pages` by cursor (`null` is the first page), each answered once a test
 * lets it through (`release`), so a test can look at the screen between two pages. Records the cursors asked for.
 */
function serveList(pages: Record<string, Page | Response>, { held = false } = {}) {
  const cursors: Array<string | null> = [];
  const waiting: Array<() => void> = [];
  vi.stubGlobal('fetch', async (input: string) => {
    const cursor = new URL(input, 'http://app.test').searchParams.get('cursor');
    cursors.push(cursor);
    if (held) await new Promise<void>((resolve) => waiting.push(resolve));
    const page = pages[cursor ?? 'first'];
    if (page === undefined) throw new Error(`no page for cursor ${cursor}`);
    return page instanceof Response ? page.clone() : json(page);
  });
  const release = async () => {
    await waitFor(() => expect(waiting.length).toBeGreaterThan(0));
    await act(async () => {
      waiting.shift()?.();
      await new Promise((resolve) => setTimeout(resolve, 10));
    });
  };
  return { cursors, release };
}

function renderList(view: ListView) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <BrowserRouter>
        <PaymentsList view={view} username="ana" config={config} summary={null} onChange={() => {}} />
      </BrowserRouter>
    </QueryClientProvider>,
  );
}

const status = () => screen.getByTestId('list-status');
const drawnRows = () =>
  [...document.querySelectorAll('tbody tr[data-row-id]')].map(
    (row) => `${row.getAttribute('data-company-id') ?? ''}/${row.getAttribute('data-row-id')}`,
  );

beforeEach(stubTableLayout);

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe("a group's list, whose companies each number their payments 1, 2, 3", () => {
  it('shows every row, each with its company, and every id as the row id', async () => {
    serveList({
      first: {
        data: [{ id: 1 }, { id: 1 }, { id: 2 }, { id: 2 }, { id: 3 }, { id: 3 }],
        company_ids: ['acme-eu', 'acme-us', 'acme-eu', 'acme-us', 'acme-eu', 'acme-us'],
        next_cursor: null,
        has_more: false,
      },
    });
    renderList({ ...DEFAULT_VIEW, company: 'acme', group: true });
    await waitFor(() => expect(status().textContent).toBe('6 payments loaded · end of list'));
    expect(drawnRows()).toEqual([
      'acme-eu/1',
      'acme-us/1',
      'acme-eu/2',
      'acme-us/2',
      'acme-eu/3',
      'acme-us/3',
    ]);
    const companies = [...document.querySelectorAll('tbody [data-column="@company"]')].map(
      (cell) => cell.textContent,
    );
    expect(companies).toEqual([
      'Acme Europe',
      'Acme Americas',
      'Acme Europe',
      'Acme Americas',
      'Acme Europe',
      'Acme Americas',
    ]);
  });
});

describe('pages shorter than the limit, or empty while more follow', () => {
  it('keep loading past empty pages, and never say the list is empty while more follow', async () => {
    const { cursors, release } = serveList(
      {
        first: { data: [], next_cursor: 'c1', has_more: true },
        c1: { data: [], next_cursor: 'c2', has_more: true },
        c2: { data: [{ id: 'p1' }, { id: 'p2' }], next_cursor: 'c3', has_more: true },
        c3: { data: [{ id: 'p3' }], next_cursor: null, has_more: false },
      },
      { held: true },
    );
    renderList(DEFAULT_VIEW);
    for (let page = 0; page < 2; page++) {
      await release();
      expect(status().textContent).toBe('Loading payments…');
      expect(screen.getByTestId('skeleton')).toBeTruthy();
      expect(screen.queryByText(/No payments match/)).toBeNull();
    }
    // two rows do not fill the window: the next page is asked for at once
    await release();
    await release();
    await waitFor(() => expect(status().textContent).toBe('3 payments loaded · end of list'));
    expect(cursors).toEqual([null, 'c1', 'c2', 'c3']);
    expect(drawnRows()).toEqual(['/p1', '/p2', '/p3']);
    expect(screen.queryByText(/No payments match/)).toBeNull();
  });

  it('say "No payments match" only once the list has ended without rows', async () => {
    const { cursors } = serveList({
      first: { data: [], next_cursor: 'c1', has_more: true },
      c1: { data: [], next_cursor: null, has_more: false },
    });
    renderList({ ...DEFAULT_VIEW, statuses: ['FAILED'] });
    expect(await screen.findByText('No payments match these filters.')).toBeTruthy();
    expect(status().textContent).toBe('0 payments loaded · end of list');
    expect(cursors).toEqual([null, 'c1']);
  });
});

describe('a list whose position expired', () => {
  it('starts over from its first page and says so', async () => {
    let restarted = false;
    const expired = json(
      {
        type: 'x',
        title: 'Cursor expired',
        status: 400,
        detail: 'the position expired',
        code: 'cursor_expired',
      },
      400,
    );
    const firstPage = (): Page => ({
      data: [{ id: restarted ? 'new' : 'p1' }],
      next_cursor: restarted ? null : 'c1',
      has_more: !restarted,
    });
    const cursors: Array<string | null> = [];
    vi.stubGlobal('fetch', async (input: string) => {
      const cursor = new URL(input, 'http://app.test').searchParams.get('cursor');
      cursors.push(cursor);
      if (cursor === null) return json(firstPage());
      restarted = true;
      return expired.clone();
    });
    renderList(DEFAULT_VIEW);
    await waitFor(() => expect(status().textContent).toBe('1 payment loaded · end of list'));
    expect(cursors).toEqual([null, 'c1', null]);
    expect(drawnRows()).toEqual(['/new']);
    expect(screen.getByText('The list was restarted because its position expired.')).toBeTruthy();
    expect(screen.queryByText(/Could not load more/)).toBeNull();
  });

  it('shows the error instead of starting over again when the new position expires at once', async () => {
    const expired = json(
      {
        type: 'x',
        title: 'Cursor expired',
        status: 400,
        detail: 'the position expired',
        code: 'cursor_expired',
      },
      400,
    );
    const cursors: Array<string | null> = [];
    vi.stubGlobal('fetch', async (input: string) => {
      const cursor = new URL(input, 'http://app.test').searchParams.get('cursor');
      cursors.push(cursor);
      return cursor === null
        ? json({ data: [{ id: 'p1' }], next_cursor: 'c1', has_more: true })
        : expired.clone();
    });
    renderList(DEFAULT_VIEW);
    expect(
      await screen.findByText(/Could not load more: The position in this list has expired/),
    ).toBeTruthy();
    expect(cursors).toEqual([null, 'c1', null, 'c1']);
  });
});

describe('a view that cannot be listed', () => {
  it('names the company the user may not see, once', async () => {
    const forbidden = json(
      { type: 'x', title: 'Forbidden', status: 403, detail: 'not yours', code: 'forbidden_company' },
      403,
    );
    serveList({ first: forbidden });
    renderList({ ...DEFAULT_VIEW, company: 'globex' });
    const alerts = await screen.findAllByRole('alert');
    expect(alerts.map((alert) => alert.textContent)).toEqual([
      'You do not have access to the company “globex”. Choose another company in the switcher.',
    ]);
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
  });

  it("under an empty period, says where the view's data ends (one row asked) and begins (its figures at any date)", async () => {
    const asked: string[] = [];
    let countDone = () => {};
    const counted = new Promise<void>((resolve) => {
      countDone = resolve;
    });
    vi.stubGlobal('fetch', async (input: string) => {
      const url = new URL(input, 'http://app.test');
      asked.push(`${url.pathname}?${url.searchParams}`);
      if (url.pathname === '/api/payments/summary') {
        const encoder = new TextEncoder();
        const summary = {
          count: 1_234,
          complete: true,
          by_status: [{ status: 'FAILED', count: 1_234 }],
          totals: [],
          uninterpreted: 0,
          days: [
            { day: '2024-06-03', count: 4, totals: [] },
            { day: '2026-05-31', count: 1, totals: [] },
          ],
          undated: 0,
        };
        const body = new ReadableStream<Uint8Array>({
          async start(controller) {
            controller.enqueue(encoder.encode('event: progress\ndata: {"counted":600}\n\n'));
            await counted;
            controller.enqueue(encoder.encode(`event: summary\ndata: ${JSON.stringify(summary)}\n\n`));
            controller.close();
          },
        });
        return new Response(body, { headers: { 'Content-Type': 'text/event-stream' } });
      }
      return json(
        url.searchParams.has('date_from')
          ? { data: [], next_cursor: null, has_more: false }
          : { data: [{ id: 'p9', created_at: '2026-05-31T18:02:11' }], next_cursor: 'n', has_more: true },
      );
    });
    renderList({
      ...DEFAULT_VIEW,
      statuses: ['FAILED'],
      dateFrom: '2026-10-01T00:00:00',
      dateTo: '2026-10-31T23:59:59',
    });
    const hint = await screen.findByTestId('empty-period-hint');
    expect(hint.textContent).toBe('Newest payment of this view: 31 May 2026 — show that month');
    expect(screen.getByRole('link', { name: 'show that month' }).getAttribute('href')).toBe(
      '/?status=FAILED&date_from=2026-05-01T00:00:00&date_to=2026-05-31T23:59:59',
    );
    // the beginning needs the view counted at any date: how far, while it counts
    await waitFor(() =>
      expect(screen.getByTestId('data-begins-hint').textContent).toBe(
        'Finding where its payments begin… 600 counted',
      ),
    );
    countDone();
    await waitFor(() =>
      expect(screen.getByTestId('data-begins-hint').textContent).toBe(
        'Oldest payment of this view: 3 June 2024, of 1,234 at any date — show its first month',
      ),
    );
    expect(screen.getByRole('link', { name: 'show its first month' }).getAttribute('href')).toBe(
      '/?status=FAILED&date_from=2024-06-01T00:00:00&date_to=2024-06-30T23:59:59',
    );
    // the period's page, one row of the view at any date, then its figures at any date
    expect(asked).toEqual([
      '/api/payments?limit=50&status=FAILED&date_from=2026-10-01T00%3A00%3A00&date_to=2026-10-31T23%3A59%3A59',
      '/api/payments?limit=1&status=FAILED',
      '/api/payments/summary?status=FAILED',
    ]);
  });

  it('asks nothing for a range that ends before it starts, and lists nothing', async () => {
    const { cursors } = serveList({});
    renderList({ ...DEFAULT_VIEW, dateFrom: '2026-05-02T00:00:00', dateTo: '2026-05-01T23:59:59' });
    expect(await screen.findByText('No payments match these filters.')).toBeTruthy();
    expect(cursors).toEqual([]);
  });
});
