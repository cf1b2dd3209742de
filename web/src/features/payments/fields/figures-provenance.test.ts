import type { Summary } from '@payments/shared';
import { describe, expect, it } from 'vitest';
import { exportAgainstSummary, settledLabel, timeOfDay } from './figures-provenance.ts';

const summary: Summary = {
  count: 4_400,
  complete: true,
  by_status: [],
  totals: [],
  uninterpreted: 0,
  days: [],
  undated: 0,
  as_of: '2026-05-20T08:42:10.123Z',
};

describe('when figures were counted', () => {
  it('reads the time in the zone shown, with the date only when it is not today there', () => {
    const now = Date.parse('2026-05-20T12:00:00Z');
    expect(timeOfDay(summary.as_of, 'UTC', now)).toBe('08:42');
    expect(timeOfDay(summary.as_of, 'Europe/Berlin', now)).toBe('10:42');
    expect(timeOfDay(summary.as_of, 'America/Los_Angeles', now)).toBe('01:42');
    expect(timeOfDay(summary.as_of, 'UTC', Date.parse('2026-05-21T00:30:00Z'))).toBe('20 May 08:42');
    expect(timeOfDay(undefined, 'UTC', now)).toBeNull();
  });
});

describe('the settled figure', () => {
  it('is called after the statuses it adds', () => {
    expect(settledLabel(['COMPLETED'])).toBe('Completed');
    expect(settledLabel(['COMPLETED', 'PARTIALLY_REFUNDED'])).toBe('Completed and Partially refunded');
    expect(settledLabel(['A', 'B', 'C'])).toBe('A, B and C');
  });
});

describe("an export's rows against the summary", () => {
  const zone = 'Europe/Berlin';
  it('says nothing when they agree, and why when they do not', () => {
    expect(exportAgainstSummary(4_400, summary, zone)).toBeNull();
    expect(exportAgainstSummary(4_400, null, zone)).toBeNull();
    expect(exportAgainstSummary(4_412, summary, zone)).toMatch(
      /^12 payments arrived since (\d+ May )?10:42 \(the summary counted 4,400\)\.$/,
    );
    expect(exportAgainstSummary(4_399, summary, zone)).toMatch(
      /^1 payment fewer than the summary counted at (\d+ May )?10:42 \(4,400\): payments left the view since/,
    );
    expect(exportAgainstSummary(9_000, { ...summary, complete: false }, zone)).toBe(
      'The summary stopped counting at 4,400; the file holds every row.',
    );
  });
});
