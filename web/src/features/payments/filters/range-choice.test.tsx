import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { chooseCount, chooseZone } from '../view/display-zone.ts';
import { DEFAULT_VIEW, type ListView } from '../view/list-view.ts';
import { RangeChoice } from './range-choice.tsx';

afterEach(() => {
  chooseZone('company');
  chooseCount('company');
  cleanup();
  vi.useRealTimers();
});

function renderChoice(view: ListView = DEFAULT_VIEW, timeZone = 'Europe/Berlin') {
  const onChange = vi.fn();
  render(<RangeChoice view={view} timeZone={timeZone} onChange={onChange} />);
  return { onChange, range: screen.getByRole('combobox', { name: 'Range' }) as HTMLSelectElement };
}

describe('the presets of the range', () => {
  it("set both ends, counted in the company's zone, and mark the preset in use", () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    // 23:30 UTC on 31 October is already 1 November in Berlin
    vi.setSystemTime(new Date('2026-10-31T23:30:00Z'));
    const { onChange, range } = renderChoice();
    expect(range.value).toBe('');
    fireEvent.change(range, { target: { value: 'Last month' } });
    expect(onChange).toHaveBeenCalledWith({ dateFrom: '2026-10-01T00:00:00', dateTo: '2026-10-31T23:59:59' });
    cleanup();
    const today = renderChoice({
      ...DEFAULT_VIEW,
      dateFrom: '2026-11-01T00:00:00',
      dateTo: '2026-11-01T23:59:59',
    });
    expect(today.range.value).toBe('Today');
    cleanup();
    const typed = renderChoice({
      ...DEFAULT_VIEW,
      dateFrom: '2026-11-01T00:00:00',
      dateTo: '2026-11-01T12:00:00',
    });
    expect(typed.range.value).toBe('');
    expect(typed.range.selectedOptions[0]?.textContent).toBe(
      'As typed · 1 Nov 2026 00:00 – 1 Nov 2026 12:00',
    );
  });

  it('say the dates each means now, and those of the range typed', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-05-20T10:00:00Z'));
    const { range } = renderChoice({
      ...DEFAULT_VIEW,
      dateFrom: '2026-05-01T09:30:00',
      dateTo: '2026-05-31T23:59:59',
    });
    expect(range.selectedOptions[0]?.textContent).toBe('As typed · 1 May 2026 09:30 – 31 May 2026 23:59');
    expect([...range.options].map((option) => option.textContent)).toEqual([
      'As typed · 1 May 2026 09:30 – 31 May 2026 23:59',
      'Today · 20 May 2026',
      'Last 7 days · 14 May – 20 May 2026',
      'Last 30 days · 21 Apr – 20 May 2026',
      'This month · 1 May – 31 May 2026',
      'Last month · 1 Apr – 30 Apr 2026',
      'This quarter · 1 Apr – 30 Jun 2026',
      'Last quarter · 1 Jan – 31 Mar 2026',
      'Year to date · 1 Jan – 20 May 2026',
      'Last year · 1 Jan – 31 Dec 2025',
    ]);
  });

  it("read a typed range in the zone times are shown in, and name the company's zone for its presets' days", () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-05-20T10:00:00Z'));
    chooseZone('utc');
    const preset = renderChoice({
      ...DEFAULT_VIEW,
      dateFrom: '2026-05-01T00:00:00',
      dateTo: '2026-05-31T23:59:59',
    });
    expect(preset.range.value).toBe('This month');
    expect(preset.range.selectedOptions[0]?.textContent).toBe(
      'This month · 1 May – 31 May 2026 (Europe/Berlin)',
    );
    cleanup();
    // the whole of May in UTC, kept as Berlin's wall times
    const typed = renderChoice({
      ...DEFAULT_VIEW,
      dateFrom: '2026-05-01T02:00:00',
      dateTo: '2026-06-01T01:59:59',
    });
    expect(typed.range.value).toBe('');
    expect(typed.range.selectedOptions[0]?.textContent).toBe('As typed · 1 May – 31 May 2026 (UTC)');
  });

  it('count the days of the zone times are shown in, where the user chose to, kept as the company’s wall times', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-06-10T10:00:00Z'));
    chooseZone('utc');
    chooseCount('shown');
    const { onChange, range } = renderChoice();
    expect([...range.options].find((option) => option.value === 'Last month')?.textContent).toBe(
      'Last month · 1 May – 31 May 2026 (UTC)',
    );
    fireEvent.change(range, { target: { value: 'Last month' } });
    // May in UTC is 02:00 on 1 May to 01:59:59 on 1 June in Berlin
    expect(onChange).toHaveBeenCalledWith({ dateFrom: '2026-05-01T02:00:00', dateTo: '2026-06-01T01:59:59' });
  });
});
