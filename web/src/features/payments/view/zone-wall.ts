import { wallClockIn, wallTimeToInstant } from '@payments/shared/date-time';

/**
 * A wall time `YYYY-MM-DDTHH:MM:SS` in zone `from` as the wall time of the same instant in zone `to`: what a user
 * reads or types in the zone times are shown in, as the filters take it (the company's zone), and back. A wall
 * time skipped by a change to summer time means the first instant after the gap; null when it is no date-time.
 */
export function convertWall(wall: string, from: string, to: string): string | null {
  if (from === to) return wall;
  const instant = wallTimeToInstant(wall, from);
  if (instant === null) return null;
  const { date, time } = wallClockIn(instant, to);
  return `${date}T${time}`;
}
