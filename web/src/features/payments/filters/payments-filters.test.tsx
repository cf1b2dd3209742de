import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { chooseZone } from '../view/display-zone.ts';
import { DEFAULT_VIEW, type ListView } from '../view/list-view.ts';
import { PaymentsFilters } from './payments-filters.tsx';

afterEach(() => {
  chooseZone('company');
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
      currency={null}
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

  it("take and show times in the zone chosen, and keep them in the company's", () => {
    chooseZone('utc');
    const view = { ...DEFAULT_VIEW, dateFrom: '2026-10-01T02:00:00' };
    const { onChange, from, to } = renderFilters(view, 'Europe/Berlin');
    expect(screen.getByText('Created from').textContent).toContain('(UTC)');
    // 02:00 in Berlin on 1 October is midnight UTC: the whole day in the zone the user reads
    expect(from.value).toBe('2026-10-01');
    type(to, '2026-10-31');
    fireEvent.submit(to);
    // the end of 31 October in UTC is 00:59:59 on 1 November in Berlin (winter time)
    expect(onChange).toHaveBeenLastCalledWith({ dateTo: '2026-11-01T00:59:59' });
  });

  it('refuse a To before From with a plain sentence, once, and leave the range as it was', () => {
    const { onChange, to } = renderFilters({ ...DEFAULT_VIEW, dateFrom: '2026-10-10T00:00:00' });
    type(to, '2026-10-01');
    fireEvent.submit(to);
    expect(onChange).not.toHaveBeenCalled();
    expect(screen.getAllByRole('alert').map((alert) => alert.textContent)).toEqual([
      'Not applied: “To” would be before “From”.',
    ]);
    expect(to.getAttribute('aria-invalid')).toBe('true');
  });

  it('say once that a range from the address ends before it starts', () => {
    renderFilters({ ...DEFAULT_VIEW, dateFrom: '2026-10-10T00:00:00', dateTo: '2026-10-01T23:59:59' });
    expect(screen.getAllByRole('alert').map((alert) => alert.textContent)).toEqual([
      '“To” is before “From”: no payment can be in this range. Change one of the dates.',
    ]);
  });
});
