import { randomBytes } from 'node:crypto';
import type { Payment } from '@payments/shared';
import type ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import type { RowsEnd, ViewRow } from '../walk/ordered-walk.ts';
import type { FileRows } from './csv-body.ts';
import { columnsFor } from './export-columns.ts';
import { readWorkbook, zipEntries } from './testing/read-xlsx.ts';
import { xlsxBody } from './xlsx-body.ts';

const rowsOf = (records: Payment[], company = 'acme-eu'): ViewRow[] =>
  records.map((record) => ({ record, company }));

/** A walk that gives `batches` after the first, then ends as `end` says. */
async function* walkOf(batches: ViewRow[][], end: RowsEnd = { ok: true, attempts: 1 }) {
  for (const batch of batches) yield batch;
  return end;
}

function fileOf(first: ViewRow[], later: ViewRow[][] = [], more: Partial<FileRows> = {}): FileRows {
  return {
    columns: columnsFor(
      first.map((row) => row.record),
      undefined,
      more.group ?? false,
    ),
    first,
    rows: walkOf(later),
    group: false,
    timeZone: 'Europe/Berlin',
    amountUnit: 'minor',
    ...more,
  };
}

/** Row `n` of a sheet as its cells by column name (from the header row). */
function cellsByName(sheet: ExcelJS.Worksheet | undefined, n: number): Record<string, ExcelJS.Cell> {
  if (!sheet) throw new Error('no sheet');
  const names = sheet.getRow(1).values as (string | undefined)[];
  return Object.fromEntries(
    names.flatMap((name, i) => (name === undefined ? [] : [[name, sheet.getRow(n).getCell(i)]])),
  );
}

/** Every byte of the body, and how its walk ended. */
async function drain(file: FileRows, rowsPerSheet?: number) {
  const body = xlsxBody(file, rowsPerSheet);
  const chunks: Uint8Array[] = [];
  for (;;) {
    const next = await body.next();
    if (next.done) return { bytes: Buffer.concat(chunks), end: next.value, rows: body.rows };
    chunks.push(next.value);
  }
}

describe('XLSX file', () => {
  it('holds amounts as numbers in their currency, times as date-times, and text as text', async () => {
    const { bytes, end, rows } = await drain(
      fileOf(
        rowsOf([
          { id: '12345678901234567890', amount: 10435, currency: 'EUR', created_at: '2026-07-01T12:00:00' },
          { id: 'p2', amount: 109389, currency: 'JPY', description: '=HYPERLINK("http://x")', fee: 2.5 },
        ]),
        [rowsOf([{ id: 'p3', amount: -1234, currency: 'BHD', description: '-5% early discount' }])],
      ),
    );
    expect(end).toEqual({ ok: true, attempts: 1 });
    expect(rows).toBe(3);
    const sheet = (await readWorkbook(bytes)).worksheets[0];
    const [first, second, third] = [2, 3, 4].map((n) => cellsByName(sheet, n)) as [
      Record<string, ExcelJS.Cell>,
      Record<string, ExcelJS.Cell>,
      Record<string, ExcelJS.Cell>,
    ];
    expect(first['Payment ID']?.value).toBe('12345678901234567890');
    expect(first.Amount?.value).toBe(104.35);
    expect(first.Amount?.numFmt).toBe('#,##0.00 "EUR"');
    expect(first['Amount as sent']?.value).toBe(10435);
    // Wall time in Berlin (+02:00 in July) and the instant in UTC, both date-times.
    expect(first['Created (Europe/Berlin)']?.value).toEqual(new Date('2026-07-01T12:00:00.000Z'));
    expect(first['Created (Europe/Berlin)']?.numFmt).toBe('yyyy-mm-dd hh:mm:ss');
    expect(first['Created, UTC (ISO 8601)']?.value).toEqual(new Date('2026-07-01T10:00:00.000Z'));
    expect(second.Amount?.value).toBe(109389);
    expect(second.Amount?.numFmt).toBe('#,##0 "JPY"');
    expect(second.Description?.value).toBe('=HYPERLINK("http://x")');
    expect(second.Description?.formula).toBeUndefined();
    expect(second.fee?.value).toBe(2.5);
    expect(third.Amount?.value).toBe(-1.234);
    expect(third.Amount?.numFmt).toBe('#,##0.000 "BHD"');
    expect(third.Description?.value).toBe('-5% early discount');
  });

  it('writes each amount as the exact decimal the CSV writes; one a spreadsheet cannot hold exactly stays text', async () => {
    const { bytes } = await drain(
      fileOf(
        rowsOf([
          { id: 'a', amount: '0.10', currency: 'EUR' },
          { id: 'b', amount: '1234567890123.45', currency: 'EUR' },
          { id: 'c', amount: '12345678901234567.89', currency: 'EUR' },
          { id: 'd', amount: '12,50', currency: 'EUR' },
        ]),
      ),
    );
    const xml = zipEntries(bytes).get('xl/worksheets/sheet1.xml') ?? '';
    expect(xml).toContain('<c r="F2" s="3"><v>0.10</v></c>');
    expect(xml).toContain('<c r="F3" s="3"><v>1234567890123.45</v></c>');
    expect(xml).toContain('<c r="F4" t="inlineStr"><is><t>12345678901234567.89</t></is></c>');
    // Not money: no amount, and the raw value as text beside it.
    expect(xml).not.toContain('r="F5"');
    expect(xml).toContain('<c r="H5" t="inlineStr"><is><t>12,50</t></is></c>');
    const sheet = (await readWorkbook(bytes)).worksheets[0];
    expect(sheet?.getCell('F3').value).toBe(1234567890123.45);
    expect(sheet?.getCell('H5').value).toBe('12,50');
  });

  it("names each company beside its id in a group's file", async () => {
    const first = [...rowsOf([{ id: 'p1' }], 'acme-eu'), ...rowsOf([{ id: 'p1' }], 'acme-us')];
    const names = new Map([
      ['acme-eu', 'ACME Europe'],
      ['acme-us', 'ACME «US» & Co'],
    ]);
    const { bytes } = await drain(fileOf(first, [], { group: true, companyNames: names }));
    const sheet = (await readWorkbook(bytes)).worksheets[0];
    expect([2, 3].map((n) => (sheet?.getRow(n).values as unknown[] | undefined)?.slice(1, 4))).toEqual([
      ['p1', 'acme-eu', 'ACME Europe'],
      ['p1', 'acme-us', 'ACME «US» & Co'],
    ]);
  });

  it('freezes the header, filters over it, and sizes the columns to the header and the first rows', async () => {
    const long = 'a description of forty characters, about';
    const { bytes } = await drain(
      fileOf(rowsOf([{ id: 'p1', description: long }]), [rowsOf([{ id: 'p2' }])]),
    );
    const sheet = (await readWorkbook(bytes)).worksheets[0];
    expect(sheet?.views[0]).toMatchObject({ state: 'frozen', ySplit: 1, topLeftCell: 'A2' });
    expect(sheet?.autoFilter).toBe('A1:L3');
    expect(sheet?.getRow(1).font?.bold ?? sheet?.getCell('A1').font?.bold).toBe(true);
    const widths = sheet?.columns.map((column) => column.width ?? 0) ?? [];
    expect(widths[1]).toBeGreaterThanOrEqual('company_id'.length);
    expect(widths[8]).toBeGreaterThanOrEqual(long.length);
    expect(Math.max(...widths)).toBeLessThanOrEqual(60);
  });

  it('keeps text exactly: XML specials, line breaks, control characters and what looks like an escape', async () => {
    const text = 'a & b < c > "d"\r\n\u0001 _x0041_';
    const { bytes } = await drain(fileOf(rowsOf([{ id: 'p1', description: text }])));
    const xml = zipEntries(bytes).get('xl/worksheets/sheet1.xml') ?? '';
    expect(xml).toContain('<t>a &amp; b &lt; c &gt; &quot;d&quot;_x000D_\n_x0001_ _x005F_x0041_</t>');
  });

  it('goes on to another sheet, header and filter included, when a sheet is full', async () => {
    const batch = (from: number) => rowsOf([0, 1, 2].map((i) => ({ id: `p${from + i}` })));
    const { bytes } = await drain(fileOf(batch(1), [batch(4), batch(7)]), 4);
    const book = await readWorkbook(bytes);
    expect(book.worksheets.map((sheet) => [sheet.name, sheet.rowCount, sheet.autoFilter])).toEqual([
      ['payments', 5, 'A1:L5'],
      ['payments 2', 5, 'A1:L5'],
      ['payments 3', 2, 'A1:L2'],
    ]);
    expect(book.worksheets[2]?.getCell('A2').value).toBe('p9');
    expect(zipEntries(bytes).get('xl/workbook.xml')).toContain(
      `<definedName name="_xlnm._FilterDatabase" localSheetId="1" hidden="1">'payments 2'!$A$1:$L$5</definedName>`,
    );
  });

  it('ends with the walk’s failure, never as a whole file', async () => {
    const failed: RowsEnd = {
      ok: false,
      attempts: 3,
      failure: { code: 'upstream_timeout', status: 504, detail: 'slow' },
    };
    const file = fileOf(rowsOf([{ id: 'p1' }]), [], { rows: walkOf([rowsOf([{ id: 'p2' }])], failed) });
    const { bytes, end } = await drain(file);
    expect(end).toEqual(failed);
    expect(() => zipEntries(bytes)).toThrow('not a zip');
  });

  it('asks the walk for more only as the zip is read: its read-ahead stays bounded', async () => {
    let fetched = 0;
    // Hardly compressible, as real rows are more than repeated letters.
    const description = () => randomBytes(100).toString('base64');
    async function* endless(): AsyncGenerator<ViewRow[], RowsEnd> {
      for (;;) {
        fetched += 1;
        yield rowsOf(
          Array.from({ length: 100 }, (_, i) => ({ id: `p${fetched}-${i}`, description: description() })),
        );
      }
    }
    const body = xlsxBody(fileOf(rowsOf([{ id: 'p0' }]), [], { rows: endless() }));
    await body.next();
    // Until the zip's buffers are full (its deflating runs on other threads, slower on a busy machine).
    for (let seen = -1, waited = 0; seen !== fetched && waited < 5_000; waited += 200) {
      seen = fetched;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    // The zip's streams hold some 64 KB each (Node's default buffer): about a megabyte of rows in all.
    expect(fetched).toBeLessThan(64);
    body.stop();
  });
});
