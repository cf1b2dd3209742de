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
      pageSizes={[25, 50]}
      timeZone={timeZone}
      status={null}
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

describe('the amount range', () => {
  const fields = () => ({
    min: screen.getByRole('textbox', { name: /^Amount from/ }) as HTMLInputElement,
    max: screen.getByRole('textbox', { name: /^Amount to/ }) as HTMLInputElement,
  });

  it('applies both bounds on Enter, in major units, and says in which currency', () => {
    const { onChange } = renderFilters({ ...DEFAULT_VIEW, currencies: ['EUR'] });
    const { min, max } = fields();
    expect(min.getAttribute('aria-label')).toBe('Amount from (in EUR)');
    type(min, ' 100 ');
    type(max, '250.50');
    fireEvent.submit(max);
    expect(onChange).toHaveBeenLastCalledWith({ amountMin: '100', amountMax: '250.50' });
  });

  it('says bounds are each in its own currency when not one currency is chosen', () => {
    renderFilters({ ...DEFAULT_VIEW, currencies: ['EUR', 'USD'] });
    expect(fields().min.getAttribute('aria-label')).toBe('Amount from (each in its own currency)');
  });

  it('applies when the pair is left, not when going from one bound to the other', () => {
    const { onChange } = renderFilters();
    const { min, max } = fields();
    type(min, '500');
    fireEvent.blur(min, { relatedTarget: max });
    expect(onChange).not.toHaveBeenCalled();
    type(max, '600');
    fireEvent.blur(max, { relatedTarget: document.body });
    expect(onChange).toHaveBeenLastCalledWith({ amountMin: '500', amountMax: '600' });
  });

  it('explains a bound it cannot read or a maximum below the minimum, and asks for nothing', () => {
    const { onChange } = renderFilters({ ...DEFAULT_VIEW, amountMin: '10' });
    const { min, max } = fields();
    expect(min.value).toBe('10');
    type(max, '5');
    fireEvent.submit(max);
    expect(screen.getByRole('alert').textContent).toBe(
      'Not applied: “Amount to” is below “Amount from”, so no payment could match.',
    );
    expect(max.getAttribute('aria-invalid')).toBe('true');
    type(max, '1,000');
    fireEvent.submit(max);
    expect(screen.getByRole('alert').textContent).toBe(
      'Not applied: “Amount to” must be a number in major units, such as 100 or 99.95.',
    );
    expect(onChange).not.toHaveBeenCalled();
    type(min, '');
    type(max, '');
    fireEvent.submit(max);
    expect(onChange).toHaveBeenLastCalledWith({ amountMin: null, amountMax: null });
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
