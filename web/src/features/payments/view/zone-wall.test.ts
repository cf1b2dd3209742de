import { describe, expect, it } from 'vitest';
import { convertWall } from './zone-wall.ts';

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
