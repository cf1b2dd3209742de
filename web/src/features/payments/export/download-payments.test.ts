import { describe, expect, it } from 'vitest';
import { endsAsZip, fileNameFrom } from './download-payments.ts';

/** A ZIP's end-of-central-directory record with an optional comment, after `before` bytes of content. */
function zipEnd(before: number, comment = ''): Uint8Array {
  const text = new TextEncoder().encode(comment);
  const bytes = new Uint8Array(before + 22 + text.length);
  bytes.set([0x50, 0x4b, 0x05, 0x06], before);
  bytes[before + 20] = text.length & 0xff;
  bytes[before + 21] = text.length >> 8;
  bytes.set(text, before + 22);
  return bytes;
}

describe('export request', () => {
  it('takes the file name from Content-Disposition in both forms', () => {
    expect(fileNameFrom('attachment; filename="payments-acme.csv"')).toBe('payments-acme.csv');
    expect(fileNameFrom("attachment; filename=x.csv; filename*=UTF-8''pay%C3%A9.csv")).toBe('payé.csv');
    expect(fileNameFrom(null)).toBe('payments.csv');
    expect(fileNameFrom(null, 'payments.xlsx')).toBe('payments.xlsx');
  });
});

describe('a whole workbook', () => {
  it('ends with the ZIP end record, wherever the chunks were cut', () => {
    const whole = zipEnd(100);
    expect(endsAsZip([whole])).toBe(true);
    expect(endsAsZip([whole.subarray(0, 90), whole.subarray(90, 110), whole.subarray(110)])).toBe(true);
    expect(endsAsZip([zipEnd(10, 'made by the BFF')])).toBe(true);
  });

  it('is not a file cut before its end record, nor an empty answer', () => {
    const whole = zipEnd(100);
    expect(endsAsZip([whole.subarray(0, whole.length - 1)])).toBe(false);
    expect(endsAsZip([whole.subarray(0, 100)])).toBe(false);
    expect(endsAsZip([])).toBe(false);
  });
});
