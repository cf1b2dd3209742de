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
