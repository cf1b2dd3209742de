import { describe, expect, it } from 'vitest';
import { rangeText } from './range-text.ts';

describe('the dates a range means', () => {
  it('reads whole days as dates, the year once when both ends share it', () => {
    expect(rangeText('2026-05-01T00:00:00', '2026-05-31T23:59:59', 'UTC', 'UTC')).toBe('1 May – 31 May 2026');
    expect(rangeText('2025-12-31T00:00:00', '2026-01-01T23:59:59', 'UTC', 'UTC')).toBe(
      '31 Dec 2025 – 1 Jan 2026',
    );
    expect(rangeText('2026-05-20T00:00:00', '2026-05-20T23:59:59', 'UTC', 'UTC')).toBe('20 May 2026');
    expect(rangeText('2026-05-01T00:00:00', null, 'UTC', 'UTC')).toBe('from 1 May 2026');
    expect(rangeText(null, '2026-05-31T23:59:59', 'UTC', 'UTC')).toBe('until 31 May 2026');
    expect(rangeText(null, null, 'UTC', 'UTC')).toBeNull();
  });

  it('gives times to the minute where an end is not a whole day', () => {
    expect(rangeText('2026-05-01T09:30:00', '2026-05-31T23:59:59', 'UTC', 'UTC')).toBe(
      '1 May 2026 09:30 – 31 May 2026 23:59',
    );
    expect(rangeText('2026-05-01T09:30:00', null, 'UTC', 'UTC')).toBe('from 1 May 2026 09:30');
  });

  it('names the zone the range counts in where times are shown in another than the company’s', () => {
    // typed in UTC by a user who reads UTC, kept in the Berlin company's wall time
    expect(rangeText('2026-05-01T02:00:00', '2026-06-01T01:59:59', 'Europe/Berlin', 'UTC')).toBe(
      '1 May – 31 May 2026 (UTC)',
    );
    // nobody's whole days: to the minute in the zone times are shown in
    expect(rangeText('2026-05-01T09:30:00', '2026-05-31T23:59:59', 'UTC', 'Europe/Berlin')).toBe(
      '1 May 2026 11:30 – 1 Jun 2026 01:59 (Europe/Berlin)',
    );
    // a preset: whole days in Berlin, which are not whole days in UTC
    expect(rangeText('2026-05-01T00:00:00', '2026-05-31T23:59:59', 'Europe/Berlin', 'UTC')).toBe(
      '1 May – 31 May 2026 (Europe/Berlin)',
    );
  });
});
