import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { serveEventStreams } from '../testing/event-streams.ts';
import { PaymentLookup } from './payment-lookup.tsx';

const names: Record<string, string> = { 'acme-eu': 'Acme Europe B.V.' };

function renderLookup(paymentId = 'pay_42') {
  const onFound = vi.fn();
  render(
    <QueryClientProvider client={new QueryClient()}>
      <PaymentLookup paymentId={paymentId} companyName={(id) => names[id] ?? id} onFound={onFound} />
    </QueryClientProvider>,
  );
  return onFound;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('a payment looked for in every company', () => {
  it('asks find with the id alone, says how far it has looked, and hands over the payment with its company', async () => {
    const streams = serveEventStreams();
    const onFound = renderLookup();
    await waitFor(() => expect(streams).toHaveLength(1));
    const [stream] = streams;
    expect(stream?.url.pathname).toBe('/api/payments/find');
    expect(Object.fromEntries(stream?.url.searchParams ?? [])).toEqual({ id: 'pay_42' });
    expect(stream?.headers.has('X-Company-Id')).toBe(false);
    await stream?.send('start', { estimate: null, companies: 8 });
    await stream?.send('progress', { read: 12_400 });
    expect(screen.getByTestId('payment-lookup').textContent).toBe(
      'Looking for this payment in every company you may see… 12,400 payments read in 8 companies',
    );
    const row = { id: 'pay_42', amount: 100, currency: 'EUR' };
    await stream?.send('match', { data: [row], company_ids: ['acme-eu'] });
    expect(onFound).toHaveBeenCalledWith({ row, company: 'acme-eu' });
    expect(screen.getByRole('status').textContent).toBe('Found in Acme Europe B.V.');
  });

  it('names where and how far it looked when no company holds the payment', async () => {
    const streams = serveEventStreams();
    const onFound = renderLookup();
    await waitFor(() => expect(streams).toHaveLength(1));
    await streams[0]?.send('start', { estimate: null, companies: 8 });
    await streams[0]?.send('done', { read: 38_204, found: 0, complete: true });
    expect(screen.getByTestId('payment-not-found').textContent).toBe(
      'Payment pay_42 is in none of the companies you may see. Looked in 8 companies, 38,204 payments.',
    );
    expect(onFound).not.toHaveBeenCalled();
  });

  it('says why it could not look, and Retry looks again', async () => {
    const streams = serveEventStreams();
    renderLookup();
    await waitFor(() => expect(streams).toHaveLength(1));
    await streams[0]?.send('error', { code: 'upstream_timeout', status: 504, detail: 'slow' });
    expect(screen.getByRole('alert').textContent).toContain('could not be looked for');
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(streams).toHaveLength(2));
  });
});
