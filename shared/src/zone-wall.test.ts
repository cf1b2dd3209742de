import { describe, expect, it } from 'vitest';
import { convertWall, periodIn } from './date-time.ts';

describe('a wall time in another zone', () => {
  it('is the wall time of the same instant there', () => {
    expect(convertWall('2026-05-01T00:00:00', 'UTC', 'Europe/Berlin')).toBe('2026-05-01T02:00:00');
    expect(convertWall('2026-05-01T00:00:00', 'Europe/Berlin', 'UTC')).toBe('2026-04-30T22:00:00');
    expect(convertWall('2026-01-31T23:59:59', 'America/New_York', 'Asia/Tokyo')).toBe('2026-02-01T13:59:59');
    expect(convertWall('2026-05-01T12:00:00', 'Europe/Berlin', 'Europe/Berlin')).toBe('2026-05-01T12:00:00');
  });

  it('goes back to where it came from, both ends of a day included', () => {
    for (const wall of ['2026-03-29T00:00:00', '2026-10-25T23:59:59', '2026-12-31T23:59:59'])
      expect(
        convertWall(
          convertWall(wall, 'Asia/Kolkata', 'Europe/Berlin') ?? '',
          'Europe/Berlin',
          'Asia/Kolkata',
        ),
      ).toBe(wall);
  });

  it('takes a time skipped by summer time as the first instant after the gap', () => {
    // 02:30 on 29 March 2026 does not exist in Berlin: the clocks go from 02:00 to 03:00 (01:00 UTC)
    expect(convertWall('2026-03-29T02:30:00', 'Europe/Berlin', 'UTC')).toBe('2026-03-29T01:00:00');
    expect(convertWall('2026-02-30T00:00:00', 'UTC', 'Europe/Berlin')).toBeNull();
  });
});

describe('the zone a period counts in', () => {
  it("is the company's where the range is its whole days", () => {
    expect(periodIn('2026-05-01T00:00:00', '2026-05-31T23:59:59', 'UTC', 'Europe/Berlin')).toEqual({
      zone: 'UTC',
      dateFrom: '2026-05-01T00:00:00',
      dateTo: '2026-05-31T23:59:59',
      wholeDays: true,
    });
  });

  it('is the reader’s where the range is their whole days, read there', () => {
    expect(periodIn('2026-04-30T22:00:00', '2026-05-31T21:59:59', 'UTC', 'Europe/Berlin')).toEqual({
      zone: 'Europe/Berlin',
      dateFrom: '2026-05-01T00:00:00',
      dateTo: '2026-05-31T23:59:59',
      wholeDays: true,
    });
  });

  it('is read in the reader’s zone to the second where it is nobody’s whole days', () => {
    expect(periodIn('2026-05-01T09:30:00', null, 'UTC', 'Europe/Berlin')).toEqual({
      zone: 'Europe/Berlin',
      dateFrom: '2026-05-01T11:30:00',
      dateTo: null,
      wholeDays: false,
    });
  });
});
