import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { PaymentRow } from './payment-row.tsx';

afterEach(cleanup);

const columns = ['id', 'created_at', 'status', 'amount', 'currency', 'counterparty', 'description', 'fee'];
const cells = columns.map((id) => ({ id, className: 'grid__cell', style: { width: 100 } }));
const noop = () => {};

function renderRow(
  row: { id: string | number; [field: string]: unknown },
  amountUnit: 'minor' | 'major' = 'minor',
) {
  render(
    <table>
      <tbody>
        <PaymentRow
          row={row}
          index={0}
          active
          search=""
          cells={cells}
          context={{ timeZone: 'Europe/Paris', sourceZone: 'Europe/Paris', amountUnit }}
          onFocusRow={noop}
          onBlurRow={noop}
          onRowKeyDown={noop}
        />
      </tbody>
    </table>,
  );
  const row$ = screen.getByRole('row');
  return (column: string) => row$.querySelector(`[data-column="${column}"]`) as HTMLElement;
}

describe('a payment row', () => {
  it('reads the known fields it recognises: money in its currency, times in the configured zone', () => {
    const cell = renderRow({
      id: 'pay_1',
      created_at: '2026-03-01T13:05:09Z',
      status: 'COMPLETED',
      amount: '1234.50',
      currency: 'EUR',
      counterparty: 'ACME Ltd',
      description: null,
    });
    expect(cell('created_at').textContent).toBe('2026-03-01 14:05:09 CET');
    expect(cell('amount').textContent).toMatch(/^€1,234\.50$|^1\.234,50\s€$/);
    expect(cell('counterparty').textContent).toBe('ACME Ltd');
    expect(cell('description').textContent).toBe('');
    expect(screen.queryByTitle('shown as sent')).toBeNull();
  });

  it('shows values of an unexpected type as sent, marked, and still draws every cell', () => {
    const cell = renderRow({
      id: 42,
      created_at: 1772370309,
      status: { code: 'X' },
      amount: '12,50',
      currency: ['EUR'],
      counterparty: { name: 'Ana', country: 'PT' },
      description: 7,
      fee: { amount: 3 },
    });
    expect(within(cell('id')).getByRole('link').textContent).toBe('42');
    expect(cell('created_at').textContent).toBe('1772370309');
    expect(cell('status').textContent).toBe('{"code":"X"}');
    expect(cell('amount').textContent).toBe('12,50');
    expect(cell('currency').textContent).toBe('["EUR"]');
    expect(cell('counterparty').textContent).toBe('{"name":"Ana","country":"PT"}');
    expect(cell('description').textContent).toBe('7');
    for (const column of ['created_at', 'status', 'amount', 'currency', 'counterparty', 'description'])
      expect(within(cell(column)).getByTitle('shown as sent')).toBeTruthy();
    // a field the dashboard does not know is never read, so never marked
    expect(cell('fee').textContent).toBe('{"amount":3}');
    expect(within(cell('fee')).queryByTitle('shown as sent')).toBeNull();
  });

  it('reads an integer amount in the configured unit', () => {
    expect(renderRow({ id: 'a', amount: 1234, currency: 'JPY' })('amount').textContent).toMatch(/1,234/);
    cleanup();
    expect(renderRow({ id: 'b', amount: 1234, currency: 'EUR' }, 'minor')('amount').textContent).toMatch(
      /12\.34/,
    );
    cleanup();
    expect(renderRow({ id: 'c', amount: 1234, currency: 'EUR' }, 'major')('amount').textContent).toMatch(
      /1,234\.00/,
    );
  });

  it('shows a long status the dashboard does not know in full, its whole text in the title', () => {
    const status = 'PARTIALLY_REFUNDED_PENDING_REVIEW';
    const badge = within(renderRow({ id: 'p', status })('status')).getByText(status);
    expect(badge.textContent).toBe(status);
    expect(badge.title).toBe(status);
  });
});
