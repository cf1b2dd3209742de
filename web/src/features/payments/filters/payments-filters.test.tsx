import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_VIEW, type ListView } from '../view/list-view.ts';
import { PaymentsFilters } from './payments-filters.tsx';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

function renderFilters(view: ListView = DEFAULT_VIEW, timeZone = 'Europe/Berlin') {
  const onChange = vi.fn();
  render(
    <PaymentsFilters
      view={view}
      statuses={['COMPLETED']}
      pageSizes={[25, 50]}
      timeZone={timeZone}
      onChange={onChange}
      onClear={vi.fn()}
    />,
  );
  const from = screen.getByLabelText(/Created from/) as HTMLInputElement;
  const to = screen.getByLabelText(/Created to/) as HTMLInputElement;
  return { onChange, from, to };
}

function type(input: HTMLInputElement, text: string) {
  fireEvent.change(input, { target: { value: text } });
}

describe('the date filters', () => {
  it('apply a typed date on Enter: From at the start of the day, To at its end', () => {
    const { onChange, from, to } = renderFilters();
    type(from, '2026-10-01');
    fireEvent.submit(from);
    expect(onChange).toHaveBeenLastCalledWith({ dateFrom: '2026-10-01T00:00:00' });
    type(to, '2026-10-01 09:30');
    fireEvent.blur(to);
    expect(onChange).toHaveBeenLastCalledWith({ dateTo: '2026-10-01T09:30:59' });
  });

  it('report a value they cannot read beside the field, keep it there, and leave the filter as it was', () => {
    const view = { ...DEFAULT_VIEW, dateFrom: '2026-10-01T00:00:00' };
    const { onChange, from } = renderFilters(view);
    expect(from.value).toBe('2026-10-01');
    // editing one part of the set date: half a day number
    type(from, '2026-10-3');
    fireEvent.blur(from);
    expect(onChange).not.toHaveBeenCalled();
    expect(from.getAttribute('aria-invalid')).toBe('true');
    expect(from.value).toBe('2026-10-3');
    const message = screen.getByRole('alert');
    expect(message.textContent).toMatch(/^Not applied: write a date as YYYY-MM-DD/);
    expect(from.getAttribute('aria-describedby')).toContain(message.id);
    type(from, '2026-10-31');
    fireEvent.submit(from);
    expect(onChange).toHaveBeenCalledWith({ dateFrom: '2026-10-31T00:00:00' });
    expect(from.getAttribute('aria-invalid')).toBe('false');
  });

  it('remove the filter when the field is emptied', () => {
    const { onChange, to } = renderFilters({ ...DEFAULT_VIEW, dateTo: '2026-10-01T23:59:59' });
    type(to, '');
    fireEvent.blur(to);
    expect(onChange).toHaveBeenCalledWith({ dateTo: null });
  });

  it('set both ends from a preset, counted in the configured zone, and mark the preset in use', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    // 23:30 UTC on 31 October is already 1 November in Berlin
    vi.setSystemTime(new Date('2026-10-31T23:30:00Z'));
    const { onChange } = renderFilters();
    const range = screen.getByRole('combobox', { name: 'Range' }) as HTMLSelectElement;
    expect(range.value).toBe('');
    fireEvent.change(range, { target: { value: 'Last month' } });
    expect(onChange).toHaveBeenCalledWith({
      dateFrom: '2026-10-01T00:00:00',
      dateTo: '2026-10-31T23:59:59',
    });
    cleanup();
    renderFilters({ ...DEFAULT_VIEW, dateFrom: '2026-11-01T00:00:00', dateTo: '2026-11-01T23:59:59' });
    expect((screen.getByRole('combobox', { name: 'Range' }) as HTMLSelectElement).value).toBe('Today');
    cleanup();
    renderFilters({ ...DEFAULT_VIEW, dateFrom: '2026-11-01T00:00:00', dateTo: '2026-11-01T12:00:00' });
    const typed = screen.getByRole('combobox', { name: 'Range' }) as HTMLSelectElement;
    expect(typed.value).toBe('');
    expect(typed.selectedOptions[0]?.textContent).toBe('As typed');
  });
});
