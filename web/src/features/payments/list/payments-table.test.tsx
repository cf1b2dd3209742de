import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadColumnLayout } from '../fields/column-layout.ts';
import { stubTableLayout } from '../testing/table-layout.ts';
import type { ListSort } from '../view/list-view.ts';
import { PaymentsTable, type TableRows } from './payments-table.tsx';

// Loaded in the order the BFF walked them: by amount, smallest first; not by date.
const rows = [
  { id: 'p-3', created_at: '2026-03-01T10:00:00Z', amount: 100, currency: 'EUR', status: 'COMPLETED' },
  { id: 'p-1', created_at: '2026-03-03T10:00:00Z', amount: 200, currency: 'EUR', status: 'FAILED' },
  { id: 'p-2', created_at: '2026-03-02T10:00:00Z', amount: 300, currency: 'EUR', status: 'AWAITING' },
];
const list: TableRows = {
  rows,
  companyIds: [],
  keys: rows.map((row) => row.id),
  extraFields: ['fee'],
  statuses: ['COMPLETED', 'FAILED', 'AWAITING'],
  awaitingRows: false,
  hasNextPage: false,
  isFetchingNextPage: false,
  isFetchNextPageError: false,
  fetchNextPage: () => {},
};

function renderTable({
  username = 'ana',
  sort = null as ListSort | null,
  onSortChange = vi.fn<(sort: ListSort | null) => void>(),
} = {}) {
  const view = render(
    <MemoryRouter>
      <PaymentsTable
        list={list}
        username={username}
        sort={{ value: sort, onChange: onSortChange }}
        group={false}
        companyName={(id) => id}
        context={{ timeZone: 'UTC', sourceZone: 'UTC', amountUnit: 'minor' }}
        search=""
        limit={50}
        summary={null}
        panel={null}
        footer={null}
      />
    </MemoryRouter>,
  );
  return { onSortChange, unmount: view.unmount };
}

const headerIds = () =>
  [...document.querySelectorAll('thead th')].map((th) => th.getAttribute('data-column'));
const rowCells = (column: string) =>
  [...document.querySelectorAll(`tbody [data-column="${column}"]`)].map((cell) => cell.textContent);
const header = (column: string) => document.querySelector(`thead th[data-column="${column}"]`) as HTMLElement;
function chooseInMenu(column: string, item: string) {
  fireEvent.click(within(header(column)).getByRole('button', { name: /^Column options/ }));
  fireEvent.click(screen.getByRole('menuitem', { name: item }));
}

beforeEach(() => {
  stubTableLayout();
  localStorage.clear();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe("the table's order", () => {
  it('says the list is newest first by default, on the Created header', () => {
    renderTable();
    expect(header('created_at').getAttribute('aria-sort')).toBe('descending');
    expect(header('created_at').textContent).toContain('newest first');
    expect(header('amount').hasAttribute('aria-sort')).toBe(false);
  });

  it('is set by the headers of Amount, Created, Counterparty and Status, and by no other', () => {
    const { onSortChange } = renderTable();
    fireEvent.click(within(header('amount')).getByRole('button', { name: /^Amount/ }));
    fireEvent.click(within(header('created_at')).getByRole('button', { name: /^Created/ }));
    fireEvent.click(within(header('counterparty')).getByRole('button', { name: /^Counterparty/ }));
    fireEvent.click(within(header('status')).getByRole('button', { name: /^Status/ }));
    expect(onSortChange.mock.calls).toEqual([
      ['amount:desc'],
      ['created_at:asc'],
      ['counterparty:asc'],
      ['status:asc'],
    ]);
    expect(within(header('reference')).queryByRole('button', { name: /^Reference/ })).toBeNull();
  });

  it('is the BFF’s: the loaded rows stay in the order they came, whatever the sort', () => {
    renderTable({ sort: 'amount:asc' });
    expect(rowCells('id')).toEqual(['p-3', 'p-1', 'p-2']);
    expect(header('amount').getAttribute('aria-sort')).toBe('ascending');
    expect(header('amount').textContent).toContain('smallest first');
    expect(header('created_at').hasAttribute('aria-sort')).toBe(false);
  });
});

describe('the column layout', () => {
  it('moves a column with its menu, the rows’ cells with it, and keeps it for this user only', () => {
    renderTable();
    expect(headerIds().slice(0, 4)).toEqual(['id', 'created_at', 'status', 'amount']);
    chooseInMenu('amount', 'Move left');
    expect(headerIds().slice(0, 4)).toEqual(['id', 'created_at', 'amount', 'status']);
    const firstRow = document.querySelector('tbody tr') as HTMLElement;
    expect([...firstRow.querySelectorAll('td')].slice(0, 4).map((td) => td.dataset.column)).toEqual([
      'id',
      'created_at',
      'amount',
      'status',
    ]);
    expect(loadColumnLayout('ana').order.indexOf('amount')).toBeLessThan(
      loadColumnLayout('ana').order.indexOf('status'),
    );
    expect(loadColumnLayout('ben').order).toEqual([]);
  });

  it('resizes a column by keys on its handle, within its bounds, and by the menu', () => {
    renderTable();
    const handle = screen.getByRole('separator', { name: 'Width of Amount' });
    const before = Number(handle.getAttribute('aria-valuenow'));
    fireEvent.keyDown(handle, { key: 'ArrowRight' });
    fireEvent.keyDown(handle, { key: 'ArrowRight', shiftKey: true });
    expect(Number(handle.getAttribute('aria-valuenow'))).toBe(before + 60);
    expect(header('amount').style.width).toBe(`${before + 60}px`);
    fireEvent.keyDown(handle, { key: 'Home' });
    expect(handle.getAttribute('aria-valuenow')).toBe(handle.getAttribute('aria-valuemin'));
    chooseInMenu('amount', 'Wider');
    expect(Number(handle.getAttribute('aria-valuenow'))).toBe(
      Number(handle.getAttribute('aria-valuemin')) + 40,
    );
    expect(loadColumnLayout('ana').sizing.amount).toBe(Number(handle.getAttribute('aria-valuenow')));
  });

  it('pins a column after the id, sticking at the id’s width, and Reset columns restores the default', () => {
    renderTable();
    chooseInMenu('amount', 'Pin to the left');
    expect(headerIds().slice(0, 2)).toEqual(['id', 'amount']);
    expect(header('amount').classList.contains('is-pinned')).toBe(true);
    expect(header('amount').style.left).toBe(header('id').style.width);
    chooseInMenu('reference', 'Hide column');
    expect(headerIds()).not.toContain('reference');
    // focus stays in the header rather than falling to the page
    expect(document.activeElement?.getAttribute('data-menu-for')).toBe('id');

    fireEvent.click(screen.getByRole('button', { name: 'Reset columns' }));
    expect(headerIds().slice(0, 4)).toEqual(['id', 'created_at', 'status', 'amount']);
    expect(headerIds()).toContain('reference');
    expect(header('amount').classList.contains('is-pinned')).toBe(false);
  });

  it('shows a field found in the data once turned on in the chooser', () => {
    renderTable();
    expect(headerIds()).not.toContain('fee');
    fireEvent.click(screen.getByRole('checkbox', { name: /fee/ }));
    expect(headerIds().at(-1)).toBe('fee');
    expect((screen.getByRole('checkbox', { name: /fee/ }) as HTMLInputElement).checked).toBe(true);
  });

  it('lists every column in the chooser from the table, and a reload keeps what was chosen', () => {
    const first = renderTable();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Description' }));
    expect(headerIds()).not.toContain('description');
    first.unmount();
    renderTable();
    expect(headerIds()).not.toContain('description');
    expect((screen.getByRole('checkbox', { name: 'Payment ID' }) as HTMLInputElement).disabled).toBe(true);
  });

  it('closes a column menu with Escape, focus back on its button', async () => {
    renderTable();
    const button = within(header('status')).getByRole('button', { name: /^Column options/ });
    fireEvent.click(button);
    const menu = screen.getByRole('menu', { name: 'Status column' });
    expect(document.activeElement).toBe(within(menu).getByRole('menuitem', { name: 'Move left' }));
    fireEvent.keyDown(document.activeElement as Element, { key: 'ArrowDown' });
    expect(document.activeElement?.textContent).toBe('Move right');
    await act(async () => {
      fireEvent.keyDown(document.activeElement as Element, { key: 'Escape' });
    });
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(
      within(header('status')).getByRole('button', { name: /^Column options/ }),
    );
  });
});
