import { describe, expect, it } from 'vitest';
import { CsvRecordCounter } from './csv-record-counter.ts';

describe('CSV record counting', () => {
  it('counts records, not line breaks inside quoted fields, across chunk boundaries', () => {
    const counter = new CsvRecordCounter();
    for (const chunk of ['id,description\n', 'p1,"two\nli', 'nes"\np2,', 'plain\n']) counter.push(chunk);
    expect(counter.finish()).toBe(3);
  });

  it('counts a last record without a line end', () => {
    const counter = new CsvRecordCounter();
    counter.push('id\np1\np2');
    expect(counter.finish()).toBe(3);
  });

  it('tells a text that ends with a whole record from one cut inside a row or a quoted field', () => {
    const whole = new CsvRecordCounter();
    whole.push('id,d\r\np1,"a\nb"\r\n');
    expect(whole.atRecordEnd).toBe(true);
    const cutInRow = new CsvRecordCounter();
    cutInRow.push('id,d\r\np1,');
    expect(cutInRow.atRecordEnd).toBe(false);
    const cutInQuotes = new CsvRecordCounter();
    cutInQuotes.push('id,d\r\np1,"a\n');
    expect(cutInQuotes.atRecordEnd).toBe(false);
  });

  it('treats doubled quotes inside a field as text', () => {
    const counter = new CsvRecordCounter();
    counter.push('id,d\np1,"say ""hi""\nthere"\n');
    expect(counter.finish()).toBe(2);
  });
});
