import { describe, expect, it } from 'vitest';
import { jsonText, shownAmount, shownDateTime, shownText } from './shown-values.ts';

const read = (text: string) => ({ text, asSent: false });
const asSent = (text: string) => ({ text, asSent: true });

describe('amounts', () => {
  it('show a decimal string exactly, in its currency, whatever the configured unit', () => {
    expect(shownAmount('1234.50', 'EUR', 'minor', 'en-US')).toEqual(read('€1,234.50'));
    expect(shownAmount('1234.5', 'EUR', 'major', 'en-US')).toEqual(read('€1,234.50'));
    expect(shownAmount('90071992547409.91', 'USD', 'minor', 'en-US')).toEqual(read('$90,071,992,547,409.91'));
  });

  it('never round away digits a decimal string has beyond its currency’s', () => {
    expect(shownAmount('1234.567', 'EUR', 'minor', 'en-US')).toEqual(read('€1,234.567'));
  });

  it('read an integer in the configured unit: minor units are divided by the currency’s exponent', () => {
    expect(shownAmount(123456, 'EUR', 'minor', 'en-US')).toEqual(read('€1,234.56'));
    expect(shownAmount(1234, 'EUR', 'major', 'en-US')).toEqual(read('€1,234.00'));
    expect(shownAmount(-5, 'USD', 'minor', 'en-US')).toEqual(read('-$0.05'));
  });

  it('use each currency’s own exponent: JPY none, BHD three', () => {
    expect(shownAmount(123456, 'JPY', 'minor', 'en-US')).toEqual(read('¥123,456'));
    expect(shownAmount(123456, 'BHD', 'minor', 'en-US')).toEqual(read('BHD\u00a0123.456'));
    expect(shownAmount(123, 'JPY', 'major', 'en-US')).toEqual(read('¥123'));
  });

  it('read a number with a fraction as major units, even when integers are minor', () => {
    expect(shownAmount(12.5, 'EUR', 'minor', 'en-US')).toEqual(read('€12.50'));
  });

  it('show what cannot be read as it was sent, marked as such', () => {
    expect(shownAmount('12,50', 'EUR', 'minor', 'en-US')).toEqual(asSent('12,50'));
    expect(shownAmount({ value: 1250, scale: 2 }, 'EUR', 'minor', 'en-US')).toEqual(
      asSent('{"value":1250,"scale":2}'),
    );
    expect(shownAmount(true, 'EUR', 'minor', 'en-US')).toEqual(asSent('true'));
    // minor units of a currency the browser does not know cannot be divided
    expect(shownAmount(1050, 'ZZZ', 'minor', 'en-US')).toEqual(asSent('1050'));
    expect(shownAmount(1050, undefined, 'minor', 'en-US')).toEqual(asSent('1050'));
  });

  it('keep a readable amount whose currency is not an ISO code, beside that code', () => {
    expect(shownAmount('12.50', 'ZZZ', 'minor', 'en-US')).toEqual(read('12.50 ZZZ'));
    expect(shownAmount('12.50', null, 'minor', 'en-US')).toEqual(read('12.50'));
  });

  it('show nothing for an absent amount', () => {
    expect(shownAmount(null, 'EUR', 'minor')).toEqual(read(''));
    expect(shownAmount(undefined, 'EUR', 'minor')).toEqual(read(''));
  });
});

describe('date-times', () => {
  it('show a zone-less value as a wall time in the configured zone, the zone named', () => {
    expect(shownDateTime('2026-03-01T14:05:09', 'UTC')).toEqual(read('2026-03-01 14:05:09 UTC'));
    expect(shownDateTime('2026-03-01T14:05:09', 'Europe/Paris')).toEqual(read('2026-03-01 14:05:09 CET'));
    expect(shownDateTime('2026-07-01T14:05:09', 'Europe/Paris')).toEqual(read('2026-07-01 14:05:09 CEST'));
    // a zone-less time is the configured zone's, shown in the zone the user reads: 23:42 in Tokyo is 10:42 in New York
    expect(shownDateTime('2026-05-20T23:42:41', 'America/New_York', 'Asia/Tokyo').text).toMatch(
      /^2026-05-20 10:42:41 /,
    );
    expect(shownDateTime('2026-05-20T23:42:41Z', 'Asia/Tokyo', 'America/New_York').text).toMatch(
      /^2026-05-21 08:42:41 /,
    );
  });

  it('show a value with Z or an offset as that instant in the configured zone', () => {
    expect(shownDateTime('2026-03-01T13:05:09Z', 'Europe/Paris')).toEqual(read('2026-03-01 14:05:09 CET'));
    expect(shownDateTime('2026-03-01T13:05:09.250Z', 'UTC')).toEqual(read('2026-03-01 13:05:09 UTC'));
    expect(shownDateTime('2026-03-01T15:05:09+02:00', 'UTC')).toEqual(read('2026-03-01 13:05:09 UTC'));
  });

  it('show what is not a date-time as it was sent, marked as such', () => {
    expect(shownDateTime('yesterday', 'UTC')).toEqual(asSent('yesterday'));
    expect(shownDateTime('2026-02-30T10:00:00', 'UTC')).toEqual(asSent('2026-02-30T10:00:00'));
    expect(shownDateTime(1772370309, 'UTC')).toEqual(asSent('1772370309'));
    expect(shownDateTime({ at: '2026-03-01' }, 'UTC')).toEqual(asSent('{"at":"2026-03-01"}'));
    expect(shownDateTime(null, 'UTC')).toEqual(read(''));
  });
});

describe('text fields', () => {
  it('show strings as they are and nothing for null', () => {
    expect(shownText('ACME Ltd')).toEqual(read('ACME Ltd'));
    expect(shownText('')).toEqual(read(''));
    expect(shownText(null)).toEqual(read(''));
  });

  it('show any other type as compact JSON, marked as sent', () => {
    expect(shownText({ name: 'Ana', iban: 'FR76…' })).toEqual(asSent('{"name":"Ana","iban":"FR76…"}'));
    expect(shownText(['a', 1])).toEqual(asSent('["a",1]'));
    expect(shownText(42)).toEqual(asSent('42'));
  });

  it('write fields the dashboard does not know as text, structures as compact JSON', () => {
    expect(jsonText('B-001')).toBe('B-001');
    expect(jsonText({ rate: 1.1 })).toBe('{"rate":1.1}');
    expect(jsonText(false)).toBe('false');
    expect(jsonText(null)).toBe('');
  });
});
