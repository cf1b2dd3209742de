import type { Payment } from '@payments/shared';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import PaymentDrawer from './payment-drawer.tsx';

const payment: Payment = {
  id: 'pay_1',
  company_id: 'acme',
  status: 'COMPLETED',
  amount: 9765,
  currency: 'USD',
  created_at: '2026-03-01T14:05:09',
};

beforeAll(() => {
  // jsdom draws no top layer: a dialog opened modally is an open dialog
  HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
    this.open = true;
  };
  HTMLDialogElement.prototype.close ??= function (this: HTMLDialogElement) {
    this.open = false;
  };
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderDrawer(
  steps: { previous?: { href: string; open: () => void }; next?: { href: string; open: () => void } } = {},
) {
  render(
    <PaymentDrawer
      paymentId="pay_1"
      payment={payment}
      companyName="Acme"
      status={null}
      context={{ timeZone: 'UTC', sourceZone: 'UTC', amountUnit: 'minor' }}
      link="https://pay.example/payments/pay_1?company=acme"
      position={{ index: 1, loaded: 3 }}
      onClose={() => undefined}
      {...steps}
    />,
  );
  return screen.getByRole('dialog');
}

describe('PaymentDrawer', () => {
  it('reads the amount as money; the value as sent is only under "As sent by the API"', () => {
    const dialog = renderDrawer();
    expect(screen.getByTestId('drawer-amount').textContent).toBe('$97.65');
    expect(dialog.querySelector('dd[data-field="amount"]')?.textContent).toBe('$97.65');
    const sent = screen.getByText('As sent by the API').closest('details');
    expect(sent?.open).toBe(false);
    expect(screen.getByTestId('amount-as-sent').textContent).toBe('amount: 9765 (minor units)');
    expect(sent?.querySelector('pre')?.textContent).toContain('"amount": 9765');
    expect([...dialog.querySelectorAll('dd')].some((dd) => dd.textContent?.includes('9765'))).toBe(false);
  });

  it('steps to the payment before or after with its links and with k and j, not at either end', () => {
    const onPrevious = vi.fn();
    const onNext = vi.fn();
    const dialog = renderDrawer({
      previous: { href: '/payments/pay_0?company=acme', open: onPrevious },
      next: { href: '/payments/pay_2?company=acme', open: onNext },
    });
    expect(screen.getByText('2 of 3 loaded')).toBeTruthy();
    const next = screen.getByRole('link', { name: /Next/ });
    expect(next.getAttribute('href')).toBe('/payments/pay_2?company=acme');
    expect(fireEvent.click(next)).toBe(false);
    // a modified click is the browser's: the link opens in a new tab, the drawer stays
    expect(fireEvent.click(next, { ctrlKey: true })).toBe(true);
    fireEvent.keyDown(dialog, { key: 'j' });
    fireEvent.keyDown(dialog, { key: 'k' });
    fireEvent.keyDown(dialog, { key: 'j', ctrlKey: true });
    expect([onPrevious.mock.calls.length, onNext.mock.calls.length]).toEqual([1, 2]);
    cleanup();
    renderDrawer({ next: { href: '/payments/pay_2', open: onNext } });
    expect((screen.getByRole('button', { name: /Previous/ }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('copies the link to the payment in this view', async () => {
    const writeText = vi.fn(async () => undefined);
    vi.stubGlobal('navigator', { clipboard: { writeText } });
    renderDrawer();
    fireEvent.click(screen.getByRole('button', { name: 'Copy link' }));
    await waitFor(() => expect(screen.getByText('Link copied to the clipboard.')).toBeTruthy());
    expect(writeText).toHaveBeenCalledWith('https://pay.example/payments/pay_1?company=acme');
  });
});
