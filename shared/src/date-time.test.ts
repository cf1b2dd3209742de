import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dayIn, instantOf, isoInZone, wallClockIn, wallTimeToInstant } from './date-time.ts';

const HOUR = 3_600_000;
const ZONES = ['Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'Australia/Lord_Howe', 'UTC'] as const;
const zones = fc.constantFrom(...ZONES);
const FIRST = Date.parse('0001-01-02T00:00:00Z');
const LAST = Date.parse('9999-12-30T23:59:59.999Z');
const anyInstant = fc.integer({ min: FIRST, max: LAST });
/**
 * The 2026 offset changes of the zones (spring forward, fall back): the instant and the wall time where the clock
 * jumps. Cases are drawn near them often, or a random draw would almost never meet a gap or an overlap.
 */
const CHANGES = [
  ['Europe/Berlin', Date.UTC(2026, 2, 29, 1), '2026-03-29T02:00:00'],
  ['Europe/Berlin', Date.UTC(2026, 9, 25, 1), '2026-10-25T03:00:00'],
  ['America/New_York', Date.UTC(2026, 2, 8, 7), '2026-03-08T02:00:00'],
  ['America/New_York', Date.UTC(2026, 10, 1, 6), '2026-11-01T02:00:00'],
  ['Australia/Lord_Howe', Date.UTC(2026, 9, 3, 15, 30), '2026-10-04T02:00:00'],
  ['Australia/Lord_Howe', Date.UTC(2026, 3, 4, 15), '2026-04-05T02:00:00'],
] as const;
const nearChange = fc.constantFrom(...CHANGES).chain(([zone, instant, wall]) =>
  fc.integer({ min: -2 * HOUR, max: 2 * HOUR }).map((shift) => ({
    zone,
    instant: instant + shift,
    wall: new Date(Date.parse(`${wall}Z`) + shift).toISOString().slice(0, 19),
  })),
);
const anywhere = fc.record({ zone: zones, instant: anyInstant }).map(({ zone, instant }) => ({
  zone,
  instant,
  wall: new Date(instant).toISOString().slice(0, 19),
}));
const cases = fc.oneof(anywhere, nearChange);

describe('instantOf', () => {
  it.each([
    ['2026-03-01T14:05:09', Date.UTC(2026, 2, 1, 13, 5, 9)],
    ['2026-07-01T14:05:09', Date.UTC(2026, 6, 1, 12, 5, 9)],
    ['2026-03-01T14:05:09.5', Date.UTC(2026, 2, 1, 13, 5, 9, 500)],
    ['2026-03-01T14:05:09.123456', Date.UTC(2026, 2, 1, 13, 5, 9, 123)],
    ['2026-03-01T14:05:09Z', Date.UTC(2026, 2, 1, 14, 5, 9)],
    ['2026-03-01T14:05:09.007Z', Date.UTC(2026, 2, 1, 14, 5, 9, 7)],
    ['2026-03-01T14:05:09+05:30', Date.UTC(2026, 2, 1, 8, 35, 9)],
    ['2026-03-01T14:05:09.250-03:00', Date.UTC(2026, 2, 1, 17, 5, 9, 250)],
    ['2026-03-01T14:05:09-00:00', Date.UTC(2026, 2, 1, 14, 5, 9)],
    ['2026-03-01T14:05:09+00:53:28', Date.UTC(2026, 2, 1, 13, 11, 41)],
    ['2024-02-29T00:00:00Z', Date.UTC(2024, 1, 29)],
    ['0001-01-01T00:00:00Z', Date.parse('0001-01-01T00:00:00Z')],
    ['9999-12-31T23:59:59Z', Date.parse('9999-12-31T23:59:59Z')],
  ])('reads %s, zone-less ones in Europe/Berlin, as %i', (value, instant) => {
    expect(instantOf(value, 'Europe/Berlin')).toBe(instant);
  });

  it('reads a zone-less value in the zone given and a value with an offset the same in every zone', () => {
    expect(instantOf('2026-03-01T14:05:09', 'Asia/Kolkata')).toBe(Date.UTC(2026, 2, 1, 8, 35, 9));
    expect(instantOf('2026-03-01T14:05:09', 'UTC')).toBe(Date.UTC(2026, 2, 1, 14, 5, 9));
    expect(instantOf('2026-03-01T14:05:09+01:00', 'Asia/Kolkata')).toBe(Date.UTC(2026, 2, 1, 13, 5, 9));
  });

  it('reads a fraction in a gap as the first instant after it, and in an overlap as the earlier one', () => {
    expect(instantOf('2026-03-29T02:30:00.500', 'Europe/Berlin')).toBe(Date.UTC(2026, 2, 29, 1));
    expect(instantOf('2026-10-25T02:30:00.250', 'Europe/Berlin')).toBe(Date.UTC(2026, 9, 25, 0, 30, 0, 250));
  });

  it.each([
    ['2026-02-30T00:00:00', 'a day the month does not have'],
    ['2025-02-29T00:00:00Z', 'February 29 of a common year'],
    ['2026-13-01T00:00:00', 'month 13'],
    ['2026-03-01T24:00:00', 'hour 24'],
    ['2026-03-01T12:60:00', 'minute 60'],
    ['2026-03-01T12:00:60Z', 'a leap second'],
    ['0000-01-01T00:00:00Z', 'year 0'],
    ['2026-03-01 14:05:09', 'a space for T'],
    ['2026-03-01t14:05:09', 'a lower-case t'],
    ['2026-03-01T14:05', 'no seconds'],
    ['2026-03-01T14:05:09.', 'an empty fraction'],
    ['2026-03-01T14:05:09z', 'a lower-case z'],
    ['2026-03-01T14:05:09+01', 'an offset without minutes'],
    ['2026-03-01T14:05:09+0100', 'an offset without colon'],
    ['2026-03-01T14:05:09+24:00', 'an offset of 24 hours'],
    ['2026-03-01T14:05:09+01:60', 'offset minutes 60'],
    ['2026-03-01T14:05:09 Z', 'a space before Z'],
    [' 2026-03-01T14:05:09', 'a leading space'],
    ['20260301T140509Z', 'the basic format'],
    ['2026-03-01', 'a date alone'],
    ['', 'empty'],
  ])('is null for %j (%s)', (value) => {
    expect(instantOf(value, 'Europe/Berlin')).toBeNull();
  });

  it.each([
    ['a number', Date.UTC(2026, 2, 1)],
    ['a Date', new Date(Date.UTC(2026, 2, 1))],
    ['null', null],
    ['undefined', undefined],
  ])('is null for %s', (_type, value) => {
    expect(instantOf(value, 'UTC')).toBeNull();
  });

  it('reads every Date.prototype.toISOString text as Date does, extra fraction digits cut', () => {
    fc.assert(
      fc.property(anyInstant, zones, fc.stringMatching(/^\d{0,6}$/), (instant, zone, extra) => {
        const iso = new Date(instant).toISOString();
        expect(instantOf(iso, zone)).toBe(instant);
        expect(instantOf(iso.replace('Z', `${extra}Z`), zone)).toBe(instant);
      }),
    );
  });
});

describe('wallTimeToInstant', () => {
  it.each([
    ['Europe/Berlin', '2026-03-29T01:59:59', Date.UTC(2026, 2, 29, 0, 59, 59)],
    ['Europe/Berlin', '2026-03-29T02:00:00', Date.UTC(2026, 2, 29, 1)],
    ['Europe/Berlin', '2026-03-29T02:30:00', Date.UTC(2026, 2, 29, 1)],
    ['Europe/Berlin', '2026-03-29T03:00:00', Date.UTC(2026, 2, 29, 1)],
    ['America/New_York', '2026-03-08T02:30:00', Date.UTC(2026, 2, 8, 7)],
    ['Australia/Lord_Howe', '2026-10-04T02:15:00', Date.UTC(2026, 9, 3, 15, 30)],
  ])('in %s takes %s, in the spring-forward gap or around it, to %i', (zone, wall, instant) => {
    expect(wallTimeToInstant(wall, zone)).toBe(instant);
  });

  it.each([
    ['Europe/Berlin', '2026-10-25T01:59:59', Date.UTC(2026, 9, 24, 23, 59, 59)],
    ['Europe/Berlin', '2026-10-25T02:00:00', Date.UTC(2026, 9, 25, 0)],
    ['Europe/Berlin', '2026-10-25T02:30:00', Date.UTC(2026, 9, 25, 0, 30)],
    ['Europe/Berlin', '2026-10-25T03:00:00', Date.UTC(2026, 9, 25, 2)],
    ['America/New_York', '2026-11-01T01:30:00', Date.UTC(2026, 10, 1, 5, 30)],
    ['Australia/Lord_Howe', '2026-04-05T01:45:00', Date.UTC(2026, 3, 4, 14, 45)],
  ])(
    'in %s takes %s, in the fall-back overlap or around it, to the earlier instant %i',
    (zone, wall, instant) => {
      expect(wallTimeToInstant(wall, zone)).toBe(instant);
    },
  );

  it.each([
    ['Asia/Kolkata', '2026-03-01T05:30:00', Date.UTC(2026, 2, 1)],
    ['UTC', '0001-01-01T00:00:00', Date.parse('0001-01-01T00:00:00Z')],
    ['America/New_York', '0001-01-01T00:00:00', Date.parse('0001-01-01T04:56:02Z')],
    ['Europe/Berlin', '1850-01-01T00:53:28', Date.parse('1850-01-01T00:00:00Z')],
    ['UTC', '9999-12-31T23:59:59', Date.parse('9999-12-31T23:59:59Z')],
  ])('in %s takes %s to %i', (zone, wall, instant) => {
    expect(wallTimeToInstant(wall, zone)).toBe(instant);
  });

  it.each([
    '2026-03-01T14:05:09.5',
    '2026-03-01T14:05:09Z',
    '2026-03-01T14:05:09+01:00',
    '2026-02-29T00:00:00',
    '0000-06-01T00:00:00',
    '2026-03-01T14:05',
    '',
  ])('is null for %j, not the exact zone-less shape of a real date-time', (wall) => {
    expect(wallTimeToInstant(wall, 'Europe/Berlin')).toBeNull();
  });

  it('shows the date, time and zone name Intl gives for the instant, near an offset change too', () => {
    const reference = (instant: number, zone: string) => {
      const parts = new Intl.DateTimeFormat('en-GB', {
        timeZone: zone,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
        hourCycle: 'h23',
        timeZoneName: 'short',
      }).formatToParts(instant);
      const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
      return {
        date: `${part('year').padStart(4, '0')}-${part('month')}-${part('day')}`,
        time: `${part('hour')}:${part('minute')}:${part('second')}`,
        zone: part('timeZoneName'),
      };
    };
    fc.assert(
      fc.property(cases, ({ instant, zone }) => {
        // twice: the second from the hour's kept offset and name
        expect(wallClockIn(instant, zone)).toEqual(reference(instant, zone));
        expect(wallClockIn(instant, zone)).toEqual(reference(instant, zone));
      }),
      { numRuns: 1_000 },
    );
    expect(wallClockIn(Date.UTC(2026, 9, 25, 0, 59, 59), 'Europe/Berlin')).toEqual({
      date: '2026-10-25',
      time: '02:59:59',
      zone: 'CEST',
    });
    expect(wallClockIn(Date.UTC(2026, 9, 25, 1, 0, 0), 'Europe/Berlin')).toEqual({
      date: '2026-10-25',
      time: '02:00:00',
      zone: 'CET',
    });
  });

  it('gives back the instant a wall clock showed, or the earlier one when that wall time occurred twice', () => {
    let overlaps = 0;
    fc.assert(
      fc.property(cases, ({ instant, zone }) => {
        const second = Math.floor(instant / 1000) * 1000;
        const { date, time } = wallClockIn(instant, zone);
        const back = wallTimeToInstant(`${date}T${time}`, zone);
        if (back !== second) {
          overlaps += 1;
          expect(back).toBeLessThan(second);
          const earlier = wallClockIn(back ?? Number.NaN, zone);
          expect(`${earlier.date}T${earlier.time}`).toBe(`${date}T${time}`);
        }
      }),
      { numRuns: 500 },
    );
    expect(overlaps).toBeGreaterThan(0);
  });

  it('takes any wall time to an instant showing it, or, in a gap, to the first instant after the gap', () => {
    let gaps = 0;
    fc.assert(
      fc.property(cases, ({ wall, zone }) => {
        const instant = wallTimeToInstant(wall, zone) ?? Number.NaN;
        const shown = wallClockIn(instant, zone);
        if (`${shown.date}T${shown.time}` !== wall) {
          gaps += 1;
          const before = wallClockIn(instant - 1000, zone);
          expect(`${before.date}T${before.time}` < wall).toBe(true);
          expect(`${shown.date}T${shown.time}` > wall).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
    expect(gaps).toBeGreaterThan(0);
  });
});

describe('isoInZone', () => {
  it.each([
    [Date.UTC(2026, 2, 1, 13, 5, 9), 'Europe/Berlin', '2026-03-01T14:05:09+01:00'],
    [Date.UTC(2026, 6, 1, 12, 5, 9, 123), 'Europe/Berlin', '2026-07-01T14:05:09.123+02:00'],
    [Date.UTC(2026, 2, 1, 13, 5, 9), 'UTC', '2026-03-01T13:05:09+00:00'],
    [Date.UTC(2026, 2, 1, 13, 5, 9, 7), 'UTC', '2026-03-01T13:05:09.007+00:00'],
    [Date.UTC(2026, 2, 1, 13, 5, 9), 'Asia/Kolkata', '2026-03-01T18:35:09+05:30'],
    [Date.UTC(2026, 2, 1, 13, 5, 9), 'America/New_York', '2026-03-01T08:05:09-05:00'],
    [Date.UTC(2026, 6, 1), 'Australia/Lord_Howe', '2026-07-01T10:30:00+10:30'],
    [Date.UTC(2026, 2, 29, 1), 'Europe/Berlin', '2026-03-29T03:00:00+02:00'],
    [Date.UTC(2026, 2, 29, 1) - 1, 'Europe/Berlin', '2026-03-29T01:59:59.999+01:00'],
    [-1, 'UTC', '1969-12-31T23:59:59.999+00:00'],
    [1.9, 'UTC', '1970-01-01T00:00:00.001+00:00'],
    [Date.parse('1850-01-01T00:00:00Z'), 'Europe/Berlin', '1850-01-01T00:53:28+00:53:28'],
    [Date.parse('0001-01-01T00:00:00Z'), 'America/New_York', '0000-12-31T19:03:58-04:56:02'],
    [Date.parse('+010000-01-01T00:00:00Z'), 'UTC', '+010000-01-01T00:00:00+00:00'],
  ])('writes %i in %s as %s', (instant, zone, iso) => {
    expect(isoInZone(instant, zone)).toBe(iso);
  });

  it('throws RangeError for an instant that is not a time and for a zone Intl does not know', () => {
    expect(() => isoInZone(Number.NaN, 'UTC')).toThrow(RangeError);
    expect(() => isoInZone(0, 'Europe/Atlantis')).toThrow(RangeError);
  });

  it('is read back by instantOf as the same instant, whatever the zone', () => {
    fc.assert(
      fc.property(cases, ({ instant, zone }) => {
        expect(instantOf(isoInZone(instant, zone), 'Asia/Kolkata')).toBe(instant);
      }),
      { numRuns: 500 },
    );
  });

  it('is read back by Date.parse as the same instant, since standard offsets have no seconds', () => {
    const modern = fc.record({ zone: zones, instant: fc.integer({ min: Date.UTC(1970, 0, 1), max: LAST }) });
    fc.assert(
      fc.property(fc.oneof(modern, nearChange), ({ instant, zone }) => {
        expect(Date.parse(isoInZone(instant, zone))).toBe(instant);
      }),
    );
  });

  it('writes UTC as Date.prototype.toISOString does, with +00:00 and without a zero fraction', () => {
    fc.assert(
      fc.property(anyInstant, (instant) => {
        const expected = new Date(instant).toISOString().replace(/(\.000)?Z$/, '+00:00');
        expect(isoInZone(instant, 'UTC')).toBe(expected);
      }),
    );
  });
});

describe('wallClockIn', () => {
  it.each([
    [Date.UTC(2026, 0, 15, 12), 'Europe/Berlin', { date: '2026-01-15', time: '13:00:00', zone: 'CET' }],
    [Date.UTC(2026, 6, 15, 12), 'Europe/Berlin', { date: '2026-07-15', time: '14:00:00', zone: 'CEST' }],
    [Date.UTC(2026, 0, 15, 12, 0, 0, 999), 'UTC', { date: '2026-01-15', time: '12:00:00', zone: 'UTC' }],
    [Date.UTC(2026, 0, 15, 20), 'Asia/Kolkata', { date: '2026-01-16', time: '01:30:00', zone: 'GMT+5:30' }],
    [Date.UTC(2026, 0, 15, 2), 'America/New_York', { date: '2026-01-14', time: '21:00:00', zone: 'GMT-5' }],
    [
      Date.UTC(2026, 6, 15),
      'Australia/Lord_Howe',
      { date: '2026-07-15', time: '10:30:00', zone: 'GMT+10:30' },
    ],
    [Date.UTC(2026, 9, 25, 0, 30), 'Europe/Berlin', { date: '2026-10-25', time: '02:30:00', zone: 'CEST' }],
    [Date.UTC(2026, 9, 25, 1, 30), 'Europe/Berlin', { date: '2026-10-25', time: '02:30:00', zone: 'CET' }],
    [Date.UTC(2026, 0, 15, 0), 'UTC', { date: '2026-01-15', time: '00:00:00', zone: 'UTC' }],
  ])('shows %i in %s as %j', (instant, zone, expected) => {
    expect(wallClockIn(instant, zone)).toEqual(expected);
  });

  it('shows UTC as Date.prototype.toISOString does', () => {
    fc.assert(
      fc.property(anyInstant, (instant) => {
        const iso = new Date(instant).toISOString();
        expect(wallClockIn(instant, 'UTC')).toEqual({
          date: iso.slice(0, 10),
          time: iso.slice(11, 19),
          zone: 'UTC',
        });
      }),
    );
  });
});

describe('dayIn', () => {
  it.each([
    [Date.UTC(2026, 2, 1, 23, 30), 'Europe/Berlin', '2026-03-02'],
    [Date.UTC(2026, 2, 1, 23, 30), 'UTC', '2026-03-01'],
    [Date.UTC(2026, 2, 1, 23, 30), 'America/New_York', '2026-03-01'],
    [Date.UTC(2026, 2, 1, 2), 'America/New_York', '2026-02-28'],
    [Date.UTC(2026, 2, 1, 18, 29, 59), 'Asia/Kolkata', '2026-03-01'],
    [Date.UTC(2026, 2, 1, 18, 30), 'Asia/Kolkata', '2026-03-02'],
    [Date.parse('0001-01-01T00:00:00Z'), 'America/New_York', '0000-12-31'],
  ])('puts %i in %s on %s', (instant, zone, day) => {
    expect(dayIn(instant, zone)).toBe(day);
  });

  it('is the date wallClockIn shows, in every zone', () => {
    fc.assert(
      fc.property(cases, ({ instant, zone }) => {
        expect(dayIn(instant, zone)).toBe(wallClockIn(instant, zone).date);
      }),
    );
  });
});
