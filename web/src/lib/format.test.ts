import { describe, expect, it } from 'vitest';
import { formatDateTime, formatMoney, formatUnknown, zoneNameAt } from './format.ts';

describe('formatMoney', () => {
  it('divides minor units by the currency’s own exponent', () => {
    expect(formatMoney(123456, 'EUR', 'en-US')).toBe('€1,234.56');
    expect(formatMoney(123456, 'JPY', 'en-US')).toBe('¥123,456');
    expect(formatMoney(123456, 'BHD', 'en-US')).toMatch(/123\.456/);
  });

  it('keeps small and negative amounts exact', () => {
    expect(formatMoney(5, 'USD', 'en-US')).toBe('$0.05');
    expect(formatMoney(-1999, 'USD', 'en-US')).toBe('-$19.99');
    expect(formatMoney(0, 'USD', 'en-US')).toBe('$0.00');
  });

  it('does not lose cents on amounts beyond float precision of a division', () => {
    expect(formatMoney(9007199254740991, 'USD', 'en-US')).toBe('$90,071,992,547,409.91');
  });

  it('shows an unknown currency code without inventing decimals', () => {
    expect(formatMoney(1050, 'ZZZZ', 'en-US')).toBe('1050 ZZZZ (minor units)');
  });
});

describe('dates with their zone named', () => {
  it('names UTC', () => {
    expect(formatDateTime('2026-03-01T14:05:09', 'UTC')).toBe('2026-03-01 14:05:09 UTC');
  });

  it('names the offset in force at that wall time, winter and summer', () => {
    expect(zoneNameAt('2026-01-15T12:00:00', 'Europe/Paris')).toBe('GMT+1');
    expect(zoneNameAt('2026-07-15T12:00:00', 'Europe/Paris')).toBe('GMT+2');
    expect(zoneNameAt('2026-07-15T12:00:00', 'America/New_York')).toBe('EDT');
  });

  it('leaves a value that is not a date-time untouched', () => {
    expect(formatDateTime('yesterday', 'UTC')).toBe('yesterday');
  });

  it('falls back to the configured name for a zone the browser does not know', () => {
    expect(zoneNameAt('2026-01-15T12:00:00', 'Mars/Olympus')).toBe('Mars/Olympus');
  });
});

describe('formatUnknown', () => {
  it('shows text as is and structures as JSON', () => {
    expect(formatUnknown('x')).toBe('x');
    expect(formatUnknown({ a: 1 })).toBe('{"a":1}');
    expect(formatUnknown(null)).toBe('');
    expect(formatUnknown(false)).toBe('false');
  });
});

describe('zone names around a change of offset', () => {
  it('names each hour of a day whose offset changes, and whole days around it', () => {
    // Europe/Paris moves from GMT+1 to GMT+2 at 02:00 on 2026-03-29, and back at 03:00 on 2026-10-25.
    expect(formatDateTime('2026-03-28T23:30:00', 'Europe/Paris')).toBe('2026-03-28 23:30:00 GMT+1');
    expect(formatDateTime('2026-03-29T01:59:59', 'Europe/Paris')).toBe('2026-03-29 01:59:59 GMT+1');
    expect(formatDateTime('2026-03-29T03:00:00', 'Europe/Paris')).toBe('2026-03-29 03:00:00 GMT+2');
    expect(formatDateTime('2026-03-29T23:00:00', 'Europe/Paris')).toBe('2026-03-29 23:00:00 GMT+2');
    expect(formatDateTime('2026-03-30T00:00:00', 'Europe/Paris')).toBe('2026-03-30 00:00:00 GMT+2');
    expect(zoneNameAt('2026-10-25T01:00:00', 'Europe/Paris')).toBe('GMT+2');
    expect(zoneNameAt('2026-10-25T04:00:00', 'Europe/Paris')).toBe('GMT+1');
    expect(zoneNameAt('2026-11-01T00:30:00', 'America/New_York')).toBe('EDT');
    expect(zoneNameAt('2026-11-01T03:00:00', 'America/New_York')).toBe('EST');
  });

  it('gives the same names from the cache as computed afresh, in any order of asking', () => {
    const times = [
      '2026-03-29T04:00:00',
      '2026-03-29T00:15:00',
      '2026-07-01T12:00:00',
      '2026-03-29T02:30:00',
    ];
    const first = times.map((t) => zoneNameAt(t, 'Europe/Berlin'));
    const again = [...times].reverse().map((t) => zoneNameAt(t, 'Europe/Berlin'));
    expect(again.reverse()).toEqual(first);
    expect(first.slice(0, 3)).toEqual(['GMT+2', 'GMT+1', 'GMT+2']);
  });
});
