import type { Summary } from '@payments/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { chooseZone } from '../view/display-zone.ts';
import type { ListView } from '../view/list-view.ts';
import { summaryQueryKey } from '../view/query-keys.ts';
import { ExportMenu } from './export-menu.tsx';

const view: ListView = {
  company: 'acme',
  group: false,
  statuses: ['FAILED'],
  amountMin: null,
  amountMax: null,
  dateFrom: null,
  dateTo: null,
  currencies: [],
  q: null,
  limit: 50,
  sort: null,
};
const encoder = new TextEncoder();

interface Download {
  controller: ReadableStreamDefaultController<Uint8Array>;
  url: URL;
  headers: Headers;
  signal: AbortSignal | null;
}

/**
 * The BFF's streamed CSV at the network boundary: a real `Response` whose body the test feeds chunk by chunk. As
 * a real fetch does, aborting the request's signal errors the body.
 */
function serveCsvStream(): Promise<Download> {
  return new Promise((resolveDownload) => {
    vi.stubGlobal('fetch', async (input: string, init: RequestInit) => {
      let controller!: ReadableStreamDefaultController<Uint8Array>;
      const body = new ReadableStream<Uint8Array>({
        start: (c) => {
          controller = c;
        },
      });
      init.signal?.addEventListener('abort', () => controller.error(init.signal?.reason));
      resolveDownload({
        controller,
        url: new URL(input, 'http://app.test'),
        headers: new Headers(init.headers),
        signal: init.signal ?? null,
      });
      const extension = new URL(input, 'http://app.test').pathname.endsWith('.xlsx') ? 'xlsx' : 'csv';
      return new Response(body, {
        headers: { 'Content-Disposition': `attachment; filename="payments-acme.${extension}"` },
      });
    });
  });
}

/** Files the page offers for saving: clicks on download links, kept from jsdom's (absent) navigation. */
let saved: Array<{ name: string; href: string }>;
let blobs: Map<string, Blob>;
function recordDownloads(event: MouseEvent) {
  const link = event.target;
  if (link instanceof HTMLAnchorElement && link.hasAttribute('download')) {
    event.preventDefault();
    saved.push({ name: link.download, href: link.href });
  }
}

beforeEach(() => {
  saved = [];
  blobs = new Map();
  document.addEventListener('click', recordDownloads, true);
  // jsdom has no object URLs; these keep the Blob so the test can read what would be saved
  vi.stubGlobal(
    'URL',
    Object.assign(class extends URL {}, {
      createObjectURL: (blob: Blob) => {
        const url = `blob:http://app.test/${blobs.size}`;
        blobs.set(url, blob);
        return url;
      },
      revokeObjectURL: () => undefined,
    }),
  );
});

afterEach(() => {
  chooseZone('company');
  document.removeEventListener('click', recordDownloads, true);
  cleanup();
  document.body.replaceChildren();
  vi.unstubAllGlobals();
});

const status = () => screen.getByTestId('export-status');

/** The view's summary as counted now, complete, of `count` payments, in the cache the menu reads it from. */
function countedView(client: QueryClient, count: number) {
  const summary: Summary = {
    count,
    complete: true,
    by_status: [],
    totals: [],
    uninterpreted: 0,
    days: [],
    undated: 0,
    as_of: new Date().toISOString(),
  };
  client.setQueryData(summaryQueryKey(view), { counted: count, summary });
}

/** The menu in a query client of its own, as the app provides one (the export is a mutation), with its status line. */
function renderMenu(shown: ListView, client = new QueryClient(), disabled = false) {
  const slot = document.createElement('div');
  document.body.append(slot);
  render(
    <QueryClientProvider client={client}>
      <ExportMenu view={shown} statusSlot={slot} timeZone="Europe/Berlin" disabled={disabled} />
    </QueryClientProvider>,
  );
}

/** Opens the menu and chooses, as a click does. */
function choose(item: string) {
  fireEvent.click(screen.getByRole('button', { name: /^Export/ }));
  fireEvent.click(screen.getByRole('menuitem', { name: item }));
}

async function startExport(shown: ListView = view, { rendered = false, item = 'CSV, shown columns' } = {}) {
  const download = serveCsvStream();
  if (!rendered) renderMenu(shown);
  choose(item);
  return download;
}

async function send(download: Download, text: string) {
  await act(async () => {
    download.controller.enqueue(encoder.encode(text));
    await new Promise((resolve) => setTimeout(resolve, 10));
  });
}

describe('ExportMenu', () => {
  it('shows rows and bytes while the stream is read, then saves the whole file', async () => {
    const download = await startExport();
    expect(download.url.pathname).toBe('/api/payments/export.csv');
    expect(download.url.searchParams.get('status')).toBe('FAILED');
    expect(download.headers.get('X-Company-Id')).toBe('acme');

    const header = 'id,amount,currency\n';
    const first = 'p1,100,EUR\np2,200,EUR\n';
    await send(download, header + first);
    expect(status().textContent).toBe(`Exporting… 2 rows, ${(header + first).length} B`);
    expect(screen.getByRole('button', { name: 'Cancel export' })).toBeTruthy();
    const second = 'p3,300,EUR\n';
    await send(download, second);
    expect(status().textContent).toBe(`Exporting… 3 rows, ${(header + first + second).length} B`);
    expect(saved).toEqual([]);

    await act(async () => download.controller.close());
    await waitFor(() => expect(status().textContent).toBe('Saved payments-acme.csv: 3 rows.'));
    expect(saved.map((file) => file.name)).toEqual(['payments-acme.csv']);
    expect(await blobs.get(saved[0]?.href ?? '')?.text()).toBe(header + first + second);
  });

  it('says the export failed when the download breaks mid-stream, and offers no partial file', async () => {
    const download = await startExport();
    await send(download, 'id,amount\np1,100\np2,200\n');
    expect(status().textContent).toMatch(/^Exporting… 2 rows/);
    await act(async () => download.controller.error(new TypeError('network connection lost')));
    await waitFor(() => expect(status().textContent).toMatch(/^Export failed/));
    expect(status().textContent).not.toMatch(/Saved/);
    expect(saved).toEqual([]);
    expect(blobs.size).toBe(0);
    // the user can try again
    expect(screen.getByRole('button', { name: 'Export' })).toBeTruthy();
  });

  it('Cancel stops a running export: the request is aborted and nothing is saved', async () => {
    const download = await startExport();
    await send(download, 'id\np1\n');
    expect(status().textContent).toMatch(/^Exporting… 1 row,/);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel export' }));
    await waitFor(() => expect(status().textContent).toBe('Export cancelled.'));
    expect(download.signal?.aborted).toBe(true);
    expect(saved).toEqual([]);
    expect(blobs.size).toBe(0);
    expect(screen.getByRole('button', { name: 'Export' })).toBeTruthy();
  });

  it("exports a group's date range: the same filters as the list, with the columns the table shows", async () => {
    const download = await startExport({
      ...view,
      group: true,
      statuses: ['AWAITING', 'FAILED'],
      amountMin: '100',
      amountMax: '250.5',
      dateFrom: '2026-10-01T00:00:00',
      dateTo: '2026-10-31T23:59:59',
    });
    expect(Object.fromEntries(download.url.searchParams)).toEqual({
      status: 'AWAITING,FAILED',
      amount_min: '100',
      amount_max: '250.5',
      date_from: '2026-10-01T00:00:00',
      date_to: '2026-10-31T23:59:59',
      group: 'true',
      tz: 'Europe/Berlin',
      columns: 'id,@company,created_at,status,amount,currency,counterparty,description,reference,company_id',
    });
  });

  it('exports every column when "All columns" is chosen', async () => {
    const download = await startExport(view, { item: 'CSV, all columns' });
    expect(download.url.searchParams.has('columns')).toBe(false);
  });

  it('says after how many rows a download broke, and saves nothing', async () => {
    const download = await startExport();
    await send(download, 'id,amount\r\np1,100\r\np2,200\r\np3,3');
    await act(async () => download.controller.error(new TypeError('network error')));
    await waitFor(() =>
      expect(status().textContent).toBe(
        'Export failed after 2 rows: the connection broke before the file was complete. Nothing was saved.',
      ),
    );
    expect(saved).toEqual([]);
  });

  it('refuses a file whose stream ended cleanly in the middle of a row', async () => {
    const download = await startExport();
    await send(download, 'id,description\r\np1,"cut in the mid');
    await act(async () => download.controller.close());
    await waitFor(() => expect(status().textContent).toMatch(/^Export failed after 0 rows: The file ended/));
    expect(saved).toEqual([]);
    expect(blobs.size).toBe(0);
  });

  it('shows why the BFF turned an export away, and when to try again', async () => {
    vi.stubGlobal(
      'fetch',
      async () =>
        new Response(
          JSON.stringify({
            type: 'urn:x',
            title: 'Too many requests',
            status: 429,
            detail: 'you have 2 downloads running already; wait for one to finish',
            code: 'rate_limited',
          }),
          {
            status: 429,
            headers: { 'Content-Type': 'application/problem+json', 'Retry-After': '10' },
          },
        ),
    );
    renderMenu(view);
    choose('CSV, shown columns');
    await waitFor(() =>
      expect(status().textContent).toBe(
        'Export not started: you have 2 downloads running already; wait for one to finish. Try again in 10 s.',
      ),
    );
    expect(saved).toEqual([]);
  });

  it('downloads the XLSX of the same view, says its size as it grows, and saves it once whole', async () => {
    const download = await startExport(view, { item: 'Excel (XLSX), shown columns' });
    expect(download.url.pathname).toBe('/api/payments/export.xlsx');
    expect(download.url.searchParams.get('status')).toBe('FAILED');
    expect(download.url.searchParams.get('columns')).toMatch(/^id,created_at,/);
    expect(download.headers.get('X-Company-Id')).toBe('acme');
    const entries = new Uint8Array(2000);
    await act(async () => {
      download.controller.enqueue(entries);
      await new Promise((resolve) => setTimeout(resolve, 10));
    });
    expect(status().textContent).toBe('Exporting… 2.0 KB');
    const end = new Uint8Array(22);
    end.set([0x50, 0x4b, 0x05, 0x06]);
    await act(async () => {
      download.controller.enqueue(end);
      download.controller.close();
    });
    await waitFor(() => expect(status().textContent).toBe('Saved payments-acme.xlsx: 2.0 KB.'));
    expect(saved.map((file) => file.name)).toEqual(['payments-acme.xlsx']);
    expect((await blobs.get(saved[0]?.href ?? '')?.arrayBuffer())?.byteLength).toBe(2022);
  });

  it('refuses a workbook whose stream ended cleanly before its end', async () => {
    const download = await startExport(view, { item: 'Excel (XLSX), all columns' });
    expect(download.url.searchParams.has('columns')).toBe(false);
    await act(async () => {
      download.controller.enqueue(new Uint8Array(100));
      download.controller.close();
    });
    await waitFor(() =>
      expect(status().textContent).toBe(
        'Export failed after 100 B: The file ended before its end. Nothing was saved.',
      ),
    );
    expect(saved).toEqual([]);
  });

  it('sends the currencies, and the zone times are read in, to either format', async () => {
    chooseZone('company');
    const download = await startExport({ ...view, currencies: ['EUR', 'USD'] });
    expect(download.url.searchParams.get('currency')).toBe('EUR,USD');
    expect(download.url.searchParams.get('tz')).toBe('Europe/Berlin');
    cleanup();
    chooseZone('utc');
    const inUtc = await startExport(view, { item: 'Excel (XLSX), all columns' });
    expect(inUtc.url.pathname).toBe('/api/payments/export.xlsx');
    expect(inUtc.url.searchParams.get('tz')).toBe('UTC');
  });

  it("says why a file's row count differs from the summary's of its view", async () => {
    const client = new QueryClient();
    countedView(client, 2);
    renderMenu(view, client);
    const download = await startExport(view, { rendered: true });
    await send(download, 'id\np1\np2\np3\n');
    await act(async () => download.controller.close());
    await waitFor(() =>
      expect(status().textContent).toMatch(
        /^Saved payments-acme.csv: 3 rows. 1 payment arrived since \d{2}:\d{2} \(the summary counted 2\)\.$/,
      ),
    );
  });

  it('says rows done "of N" while the file is made, N being the complete count of the same view', async () => {
    const client = new QueryClient();
    // under a search, the file is the view's (an export has no search): the count of the view is N
    countedView(client, 18_787);
    renderMenu({ ...view, q: 'Hooli' }, client);
    const download = await startExport(view, { rendered: true });
    const text = 'id\np1\np2\n';
    await send(download, text);
    expect(status().textContent).toBe(`Exporting… 2 of 18,787 rows, ${text.length} B`);
  });

  it('can be turned off, for a view no export can be made of', () => {
    renderMenu(view, new QueryClient(), true);
    expect((screen.getByRole('button', { name: 'Export' }) as HTMLButtonElement).disabled).toBe(true);
  });
});
