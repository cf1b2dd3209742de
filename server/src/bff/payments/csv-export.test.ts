import type { PaymentPage } from '@payments/shared';
import { describe, expect, it } from 'vitest';
import type { UpstreamResult } from '../../upstream/index.ts';
import {
  columnsFor,
  createCsvExportStream,
  csvCell,
  csvRow,
  KNOWN_COLUMNS,
  recordCells,
} from './csv-export.ts';

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
  ])('neutralises the formula-like %j, whatever invisible characters stand before it', (value, expected) => {
    expect(csvCell(value)).toBe(expected);
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

describe('CSV columns', () => {
  it('are the known columns, then fields of the first page without one, then other_fields when records vary', () => {
    expect(
      columnsFor([
        { id: 'p1', fee: 1, amount: 5 },
        { id: 'p2', tags: [], fee: 2 },
      ]),
    ).toEqual([...KNOWN_COLUMNS, 'fee', 'tags', 'other_fields']);
  });

  it('have no other_fields column when every record of the first page has the same fields', () => {
    const uniform = [
      { id: 'p1', amount: 5, fee: 1 },
      { fee: 2, id: 'p2', amount: 7 },
    ];
    expect(columnsFor(uniform)).toEqual([...KNOWN_COLUMNS, 'fee']);
    expect(recordCells({ id: 'p3', fee: 3, later: 'x' }, columnsFor(uniform), berlinMinor)).toHaveLength(
      KNOWN_COLUMNS.length + 1,
    );
  });

  it('are the columns the user sees, in their order, each with its companions, the id first', () => {
    expect(columnsFor([{ id: 'p1', fee: 1 }], ['created_at', 'status', 'amount', 'fee', '@company'])).toEqual(
      [
        'id',
        'created_at',
        'created_at_utc',
        'status',
        'amount',
        'currency',
        'amount_raw',
        'fee',
        'company_id',
      ],
    );
    expect(columnsFor([], ['currency', 'amount', 'id'])).toEqual(['id', 'currency', 'amount', 'amount_raw']);
  });
});

const berlinMinor = { timeZone: 'Europe/Berlin', amountUnit: 'minor' } as const;

describe('CSV record', () => {
  const berlin: { timeZone: string; amountUnit: 'minor' | 'major' } = {
    timeZone: 'Europe/Berlin',
    amountUnit: 'minor',
  };
  const columns = [...KNOWN_COLUMNS, 'other_fields'];
  const cells = (record: Record<string, unknown>, how = berlin) =>
    Object.fromEntries(
      columns.map((column, i) => [column, recordCells({ id: 'p', ...record }, columns, how)[i]]),
    );

  it('gives the amount in major units as an exact decimal beside the raw value', () => {
    expect(cells({ amount: 10435, currency: 'EUR' })).toMatchObject({ amount: '104.35', amount_raw: 10435 });
    expect(cells({ amount: 109389, currency: 'JPY' })).toMatchObject({ amount: '109389' });
    expect(cells({ amount: 1234, currency: 'BHD' })).toMatchObject({ amount: '1.234' });
    expect(cells({ amount: '1234.50', currency: 'EUR' })).toMatchObject({
      amount: '1234.50',
      amount_raw: '1234.50',
    });
    expect(cells({ amount: 12.5, currency: 'USD' })).toMatchObject({ amount: '12.50' });
    expect(cells({ amount: 1234, currency: 'EUR' }, { ...berlin, amountUnit: 'major' })).toMatchObject({
      amount: '1234.00',
    });
  });

  it('leaves the amount empty and keeps the raw value when it cannot be read as money', () => {
    expect(cells({ amount: '12,50', currency: 'EUR' })).toMatchObject({ amount: null, amount_raw: '12,50' });
    expect(cells({ amount: { value: 1 }, currency: 'EUR' })).toMatchObject({ amount: null });
    expect(cells({ currency: 'EUR' })).toMatchObject({ amount: null, amount_raw: undefined });
  });

  it('writes created_at with the configured zone offset, and the same instant in UTC', () => {
    expect(cells({ created_at: '2026-07-01T12:00:00' })).toMatchObject({
      created_at: '2026-07-01T12:00:00+02:00',
      created_at_utc: '2026-07-01T10:00:00.000Z',
    });
    expect(cells({ created_at: '2026-01-15T08:15:30.123Z' })).toMatchObject({
      created_at: '2026-01-15T09:15:30.123+01:00',
      created_at_utc: '2026-01-15T08:15:30.123Z',
    });
    expect(cells({ created_at: 'yesterday' })).toMatchObject({ created_at: 'yesterday', created_at_utc: '' });
  });

  it('keeps every field without a column, of any type, in other_fields', () => {
    const other = cells({ metadata: { a: [1] }, tags: ['x'] }).other_fields as Record<string, unknown>;
    expect({ ...other }).toEqual({ metadata: { a: [1] }, tags: ['x'] });
  });
});

async function readAll(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new Response(stream).text();
}

const how = {
  timeZone: 'UTC',
  amountUnit: 'minor' as const,
  resetConnection: () => false,
  idleMs: 60_000,
  maxDurationMs: 600_000,
};
/** A row of page(): the id, the raw amount 1 (no currency, so no major amount), then `other_fields`. */
/** A row of `page()`: the id and its raw amount; with `other`, the other_fields column too. */
const row = (id: string, other?: string) => `"${id}",,,,,,,"1",,,${other === undefined ? '' : `,${other}`}`;
const page = (ids: string[], next: string | null, extra: Record<string, unknown> = {}): PaymentPage => ({
  data: ids.map((id) => ({ id, amount: 1, ...extra })),
  next_cursor: next,
  has_more: next !== null,
});

describe('CSV export stream', () => {
  it('follows the cursors to the end; fields first seen later go to other_fields', async () => {
    const pages: Record<string, PaymentPage> = {
      c1: page(['p2'], 'c2', { late: 'x' }),
      c2: page(['p3'], null),
    };
    const ends: unknown[] = [];
    // Records of varying fields on the first page: a later page may bring one more, so other_fields is there.
    const first = page(['p1'], 'c1');
    first.data.push({ id: 'p1b', amount: 1, fee: 2 });
    const stream = createCsvExportStream({
      ...how,
      firstPage: first,
      fetchPage: async (cursor) => ({ ok: true, value: pages[cursor] as PaymentPage, attempts: 1 }),
      onEnd: (outcome) => ends.push(outcome),
    });
    const lines = (await readAll(stream)).split('\r\n');
    expect(lines[0]).toBe([...KNOWN_COLUMNS, 'fee', 'other_fields'].map((c) => `"${c}"`).join(','));
    expect(lines.slice(1)).toEqual([
      row('p1', ','),
      row('p1b', '"2",'),
      row('p2', ',"{""late"":""x""}"'),
      row('p3', ','),
      '',
    ]);
    expect(ends).toEqual([{ end: 'complete', rows: 4, attempts: 2, failure: undefined }]);
  });

  it('starts the file with one UTF-8 byte order mark, for Excel', async () => {
    const stream = createCsvExportStream({
      ...how,
      firstPage: page(['p1'], 'c1'),
      fetchPage: async () => ({ ok: true, value: page(['Müller'], null), attempts: 1 }),
    });
    const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
    expect([...bytes.subarray(0, 6)]).toEqual([0xef, 0xbb, 0xbf, 0x22, 0x69, 0x64]); // BOM, then "id"
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
    expect(text.split('\uFEFF')).toHaveLength(2);
    expect(text).toContain('\r\n"Müller",');
  });

  it('keeps fields that have no column in other_fields, one named other_fields or __proto__ too', async () => {
    const stream = createCsvExportStream({
      ...how,
      firstPage: page(['p1'], 'c1', { other_fields: 'kept' }),
      // As JSON.parse gives it: `__proto__` an own field, not the prototype.
      fetchPage: async () => ({
        ok: true,
        value: {
          data: [JSON.parse('{"id":"p2","amount":1,"__proto__":{"fee":5}}')],
          next_cursor: null,
          has_more: false,
        },
        attempts: 1,
      }),
    });
    const lines = (await readAll(stream)).split('\r\n');
    expect(lines[0]).toBe([...KNOWN_COLUMNS, 'other_fields'].map((c) => `"${c}"`).join(','));
    expect(lines.slice(1)).toEqual([
      row('p1', '"{""other_fields"":""kept""}"'),
      row('p2', '"{""__proto__"":{""fee"":5}}"'),
      '',
    ]);
  });

  it('errors the stream when a later page fails, so the file cannot look complete', async () => {
    const failed: UpstreamResult<PaymentPage> = {
      ok: false,
      failure: { code: 'upstream_timeout', status: 504, detail: 'slow' },
      attempts: 4,
    };
    const stream = createCsvExportStream({
      ...how,
      firstPage: page(['p1'], 'c1'),
      fetchPage: async () => failed,
    });
    await expect(readAll(stream)).rejects.toThrow('export interrupted: upstream_timeout');
  });

  it('errors instead of looping when the upstream repeats a cursor', async () => {
    const stream = createCsvExportStream({
      ...how,
      firstPage: page(['p1'], 'same'),
      fetchPage: async () => ({ ok: true, value: page(['p2'], 'same'), attempts: 1 }),
    });
    await expect(readAll(stream)).rejects.toThrow('export interrupted: upstream_bad_response');
  });

  it('errors instead of looping when the upstream cycles through several cursors, and stops soon', async () => {
    for (const cycle of [2, 3, 7]) {
      let fetched = 0;
      const stream = createCsvExportStream({
        ...how,
        firstPage: page(['p0'], 'c0'),
        fetchPage: async (cursor) => {
          fetched += 1;
          const n = Number(cursor.slice(1));
          return { ok: true, value: page([`p${fetched}`], `c${(n + 1) % cycle}`), attempts: 1 };
        },
      });
      await expect(readAll(stream)).rejects.toThrow('export interrupted: upstream_bad_response');
      expect(fetched).toBeLessThanOrEqual(3 * cycle);
    }
  });

  it('walks a long chain of distinct cursors to its end', async () => {
    const stream = createCsvExportStream({
      ...how,
      firstPage: page(['p0'], 'c1'),
      fetchPage: async (cursor) => {
        const n = Number(cursor.slice(1));
        return { ok: true, value: page([`p${n}`], n < 500 ? `c${n + 1}` : null), attempts: 1 };
      },
    });
    expect((await readAll(stream)).split('\r\n')).toHaveLength(503);
  });

  it('fetches the next page only when the reader asks (backpressure): at most one page ahead', async () => {
    let fetched = 0;
    let n = 0;
    const stream = createCsvExportStream({
      ...how,
      firstPage: page(['p0'], 'c0'),
      fetchPage: async () => {
        fetched += 1;
        n += 1;
        return { ok: true, value: page([`p${n}`], `c${n}`), attempts: 1 };
      },
    });
    const reader = stream.getReader();
    await reader.read();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(fetched).toBeLessThanOrEqual(1);
    await reader.read();
    await reader.read();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(fetched).toBeLessThanOrEqual(3);
    await reader.cancel();
  });

  it('ends a download whose reader takes nothing for the idle time, resetting the connection', async () => {
    const ends: { end: string }[] = [];
    let reset = 0;
    const stream = createCsvExportStream({
      ...how,
      idleMs: 50,
      resetConnection: () => {
        reset += 1;
        return true;
      },
      firstPage: page(['p0'], 'c0'),
      fetchPage: async () => ({ ok: true, value: page(['p1'], 'c1'), attempts: 1 }),
      onEnd: (outcome) => ends.push(outcome),
    });
    const reader = stream.getReader();
    await reader.read();
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(ends.map((e) => e.end)).toEqual(['idle_timeout']);
    expect(reset).toBe(1);
  });

  it('does not count a slow upstream page as an idle reader', async () => {
    const ends: { end: string }[] = [];
    const stream = createCsvExportStream({
      ...how,
      idleMs: 30,
      firstPage: page(['p0'], 'c0'),
      fetchPage: async () => {
        await new Promise((resolve) => setTimeout(resolve, 100));
        return { ok: true, value: page(['p1'], null), attempts: 1 };
      },
      onEnd: (outcome) => ends.push(outcome),
    });
    expect((await readAll(stream)).split('\r\n')).toHaveLength(4);
    expect(ends.map((e) => e.end)).toEqual(['complete']);
  });

  it('ends a download that runs past the longest allowed, however fast it is read', async () => {
    const ends: { end: string }[] = [];
    let n = 0;
    const stream = createCsvExportStream({
      ...how,
      maxDurationMs: 80,
      firstPage: page(['p0'], 'c0'),
      fetchPage: async () => {
        await new Promise((resolve) => setTimeout(resolve, 10));
        n += 1;
        return { ok: true, value: page([`p${n}`], `c${n}`), attempts: 1 };
      },
      onEnd: (outcome) => ends.push(outcome),
    });
    await expect(readAll(stream)).rejects.toThrow('export interrupted: max_duration');
    expect(ends.map((e) => e.end)).toEqual(['max_duration']);
  });
});
