import { describe, expect, it } from 'vitest';
import { dateInputText, parseDateInput } from './typed-date.ts';

describe('typed dates', () => {
  it.each([
    ['2026-10-01', '2026-10-01T00:00:00', '2026-10-01T23:59:59'],
    ['2026-10-01 09:30', '2026-10-01T09:30:00', '2026-10-01T09:30:59'],
    ['2026-10-01T09:30', '2026-10-01T09:30:00', '2026-10-01T09:30:59'],
    ['2026-10-01T09:30:15', '2026-10-01T09:30:15', '2026-10-01T09:30:15'],
    ['  2026-10-01 9:05:00 ', '2026-10-01T09:05:00', '2026-10-01T09:05:00'],
    ['2028-02-29', '2028-02-29T00:00:00', '2028-02-29T23:59:59'],
  ])('reads %j as the start of what it names for From and its end for To', (typed, from, to) => {
    expect(parseDateInput(typed, 'from')).toBe(from);
    expect(parseDateInput(typed, 'to')).toBe(to);
  });

  it.each([
    '2026-13-01',
    '2026-02-30',
    '2027-02-29',
    '2026-10-01 24:00',
    '2026-10-01 09:60',
    '01.10.2026',
    '2026-10-1',
    '2026-10-01 09',
    'yesterday',
  ])('cannot read %j', (typed) => {
    expect(parseDateInput(typed, 'from')).toBeNull();
    expect(parseDateInput(typed, 'to')).toBeNull();
  });
});

describe('a filter value in its field', () => {
  it('shows a whole day as its date and any other value to the second, and reads both back unchanged', () => {
    expect(dateInputText('2026-10-01T00:00:00', 'from')).toBe('2026-10-01');
    expect(dateInputText('2026-10-01T23:59:59', 'to')).toBe('2026-10-01');
    expect(dateInputText('2026-10-01T23:59:59', 'from')).toBe('2026-10-01 23:59:59');
    expect(dateInputText(null, 'to')).toBe('');
    for (const [value, end] of [
      ['2026-10-01T00:00:00', 'from'],
      ['2026-10-01T23:59:59', 'to'],
      ['2026-10-01T12:00:00', 'to'],
    ] as const)
      expect(parseDateInput(dateInputText(value, end), end)).toBe(value);
  });
});
