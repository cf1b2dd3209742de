import { describe, expect, it } from 'vitest';
import { CsvRecordCounter, exportQuery, fileNameFrom } from './export-payments.ts';

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

  it('treats doubled quotes inside a field as text', () => {
    const counter = new CsvRecordCounter();
    counter.push('id,d\np1,"say ""hi""\nthere"\n');
    expect(counter.finish()).toBe(2);
  });
});

describe('export request', () => {
  it('sends the current filters and nothing for absent ones', () => {
    expect(exportQuery({ status: null, dateFrom: null })).toEqual({
      status: undefined,
      date_from: undefined,
    });
    expect(exportQuery({ status: 'FAILED', dateFrom: '2026-01-01T00:00:00' })).toEqual({
      status: 'FAILED',
      date_from: '2026-01-01T00:00:00',
    });
  });

  it('takes the file name from Content-Disposition in both forms', () => {
    expect(fileNameFrom('attachment; filename="payments-acme.csv"')).toBe('payments-acme.csv');
    expect(fileNameFrom("attachment; filename=x.csv; filename*=UTF-8''pay%C3%A9.csv")).toBe('payé.csv');
    expect(fileNameFrom(null)).toBe('payments.csv');
  });
});
