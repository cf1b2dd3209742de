import { describe, expect, it } from 'vitest';
import { parseDateInput } from '../view/typed-date.ts';
import { type DATE_PRESETS, dateInputText, presetRange } from './date-range-input.ts';

describe('typed dates', () => {
  it('shows a whole day as its date and any other value to the second, and reads both back unchanged', () => {
    expect(dateInputText('2026-10-01T00:00:00', 'from')).toBe('2026-10-01');
    expect(dateInputText('2026-10-01T23:59:59', 'to')).toBe('2026-10-01');
    expect(dateInputText('2026-10-01T23:59:59', 'from')).toBe('2026-10-01 23:59:59');
    expect(dateInputText(null, 'to')).toBe('');
    for (const [value, end] of [
      ['2026-10-01T00:00:00', 'from'],
      ['2026-10-01T23:59:59', 'to'],
      ['2026-10-01T12:00:00', 'to'],
    ] as const)
      expect(parseDateInput(dateInputText(value, end), end)).toBe(value);
  });
});

describe('date presets', () => {
  const berlin = 'Europe/Berlin';
  const range = (preset: (typeof DATE_PRESETS)[number], now: string, zone = berlin) => {
    const { dateFrom, dateTo } = presetRange(preset, Date.parse(now), zone);
    return `${dateFrom} – ${dateTo}`;
  };

  it('counts today in the configured zone, not in UTC: 00:30 in Berlin on the night summer time starts', () => {
    // 22:30 UTC on 29 March 2026 is 00:30 CEST on the 30th, and the 29th was 23 hours long
    expect(range('Today', '2026-03-29T22:30:00Z')).toBe('2026-03-30T00:00:00 – 2026-03-30T23:59:59');
    expect(range('Yesterday', '2026-03-29T22:30:00Z')).toBe('2026-03-29T00:00:00 – 2026-03-29T23:59:59');
    expect(range('Today', '2026-03-29T22:30:00Z', 'UTC')).toBe('2026-03-29T00:00:00 – 2026-03-29T23:59:59');
    // 21:30 UTC the same evening is still the 29th in Berlin
    expect(range('Today', '2026-03-29T21:30:00Z')).toBe('2026-03-29T00:00:00 – 2026-03-29T23:59:59');
  });

  it('crosses into the new year where the zone already has it', () => {
    const now = '2026-12-31T23:30:00Z'; // 00:30 on 1 January 2027 in Berlin
    expect(range('Today', now)).toBe('2027-01-01T00:00:00 – 2027-01-01T23:59:59');
    expect(range('This month', now)).toBe('2027-01-01T00:00:00 – 2027-01-31T23:59:59');
    expect(range('Last month', now)).toBe('2026-12-01T00:00:00 – 2026-12-31T23:59:59');
    expect(range('Last 7 days', now)).toBe('2026-12-26T00:00:00 – 2027-01-01T23:59:59');
  });

  it('ends months on their last day, February in leap years included', () => {
    expect(range('This month', '2026-03-31T12:00:00Z')).toBe('2026-03-01T00:00:00 – 2026-03-31T23:59:59');
    expect(range('Last month', '2026-03-31T12:00:00Z')).toBe('2026-02-01T00:00:00 – 2026-02-28T23:59:59');
    expect(range('Last month', '2028-03-01T12:00:00Z')).toBe('2028-02-01T00:00:00 – 2028-02-29T23:59:59');
    expect(range('This month', '2026-04-30T21:59:59Z')).toBe('2026-04-01T00:00:00 – 2026-04-30T23:59:59');
    expect(range('Yesterday', '2026-03-01T12:00:00Z')).toBe('2026-02-28T00:00:00 – 2026-02-28T23:59:59');
  });

  it('takes seven days with today as the last, across the end of a month', () => {
    expect(range('Last 7 days', '2026-03-03T08:00:00Z')).toBe('2026-02-25T00:00:00 – 2026-03-03T23:59:59');
  });
});
