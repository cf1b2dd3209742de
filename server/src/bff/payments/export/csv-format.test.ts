import { describe, expect, it } from 'vitest';
import { csvCell, csvRow } from './csv-format.ts';

describe('CSV cells', () => {
  it.each([
    ['plain', '"plain"'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['ünïcødé €', '"ünïcødé €"'],
    ['x;=1+1;', '"x;=1+1;"'],
  ])('quotes every text cell, %j as RFC 4180 wants', (value, expected) => {
    expect(csvCell(value)).toBe(expected);
  });

  it.each([
    ['=HYPERLINK("http://x")', `"'=HYPERLINK(""http://x"")"`],
    ['+1+1', `"'+1+1"`],
    ['-2+3', `"'-2+3"`],
    ['@SUM(A1)', `"'@SUM(A1)"`],
    ['\tTAB', `"'\tTAB"`],
    ['\rCR', `"'\rCR"`],
    ['\nLF', `"'\nLF"`],
    [' =1+2', `"' =1+2"`],
    ['\u00a0=1+2', `"'\u00a0=1+2"`],
    ['\u200b=1+2', `"'\u200b=1+2"`],
    ['\ufeff=1+2', `"'\ufeff=1+2"`],
    ['\u202e=1+2', `"'\u202e=1+2"`],
    ['\u2066@x', `"'\u2066@x"`],
    ['\uff1d1+2', `"'\uff1d1+2"`],
    ['\uff0b1', `"'\uff0b1"`],
    ['\uff20x', `"'\uff20x"`],
    ['\u0000=1+2', `"'\u0000=1+2"`],
    ['\u0000\u0000+1', `"'\u0000\u0000+1"`],
    ['\u0001-2+3', `"'\u0001-2+3"`],
    ['\u001f@SUM(A1)', `"'\u001f@SUM(A1)"`],
    ['\u007f=1', `"'\u007f=1"`],
    ['\u0085=1', `"'\u0085=1"`],
    ['\u0000 \u200b=1', `"'\u0000 \u200b=1"`],
  ])('neutralises the formula-like %j, whatever invisible characters stand before it', (value, expected) => {
    expect(csvCell(value)).toBe(expected);
  });

  it('leaves a cell whose control characters stand before no formula sign as it is', () => {
    expect(csvCell('\u0000abc')).toBe('"\u0000abc"');
    expect(csvCell('a\u0000=1')).toBe('"a\u0000=1"');
  });

  it('leaves plain numbers alone, negative ones included, and writes nothing for null', () => {
    expect(csvCell(-500)).toBe('"-500"');
    expect(csvCell('-12.50')).toBe('"-12.50"');
    expect(csvCell(0)).toBe('"0"');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
    expect(csvCell(true)).toBe('"true"');
  });

  it('writes nested values as JSON, quoted', () => {
    expect(csvCell({ a: 1, b: [2] })).toBe('"{""a"":1,""b"":[2]}"');
  });

  it('ends each row with CRLF', () => {
    expect(csvRow(['a', 1, null])).toBe('"a","1",\r\n');
  });
});
