import { describe, expect, it } from 'vitest';
import { type DATE_PRESETS, presetRange } from './date-presets.ts';

describe('date presets', () => {
  const berlin = 'Europe/Berlin';
  const range = (preset: (typeof DATE_PRESETS)[number], now: string, zone = berlin) => {
    const { dateFrom, dateTo } = presetRange(preset, Date.parse(now), zone);
    return `${dateFrom} – ${dateTo}`;
  };

  it('counts today in the configured zone, not in UTC: 00:30 in Berlin on the night summer time starts', () => {
    // 22:30 UTC on 29 March 2026 is 00:30 CEST on the 30th, and the 29th was 23 hours long
    expect(range('Today', '2026-03-29T22:30:00Z')).toBe('2026-03-30T00:00:00 – 2026-03-30T23:59:59');
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
  });

  it('takes seven days with today as the last, across the end of a month', () => {
    expect(range('Last 7 days', '2026-03-03T08:00:00Z')).toBe('2026-02-25T00:00:00 – 2026-03-03T23:59:59');
  });

  it('takes thirty days with today as the last, across a leap day', () => {
    expect(range('Last 30 days', '2028-03-15T08:00:00Z')).toBe('2028-02-15T00:00:00 – 2028-03-15T23:59:59');
  });

  it('counts quarters from January, April, July and October, the last one across the year', () => {
    expect(range('This quarter', '2026-05-20T10:00:00Z')).toBe('2026-04-01T00:00:00 – 2026-06-30T23:59:59');
    expect(range('Last quarter', '2026-05-20T10:00:00Z')).toBe('2026-01-01T00:00:00 – 2026-03-31T23:59:59');
    expect(range('This quarter', '2026-12-31T12:00:00Z')).toBe('2026-10-01T00:00:00 – 2026-12-31T23:59:59');
    expect(range('Last quarter', '2026-02-10T10:00:00Z')).toBe('2025-10-01T00:00:00 – 2025-12-31T23:59:59');
    // 23:30 UTC on 30 June is 1 July in Berlin: the third quarter has begun there
    expect(range('This quarter', '2026-06-30T23:30:00Z')).toBe('2026-07-01T00:00:00 – 2026-09-30T23:59:59');
  });

  it('takes the year to date from 1 January to today, and last year whole', () => {
    expect(range('Year to date', '2026-05-20T10:00:00Z')).toBe('2026-01-01T00:00:00 – 2026-05-20T23:59:59');
    expect(range('Last year', '2026-05-20T10:00:00Z')).toBe('2025-01-01T00:00:00 – 2025-12-31T23:59:59');
    expect(range('Last year', '2026-12-31T23:30:00Z')).toBe('2026-01-01T00:00:00 – 2026-12-31T23:59:59');
  });
});
