import type { Payment } from '@payments/shared';
import { describe, expect, it } from 'vitest';
import type { RowsEnd, ViewRow } from '../walk/ordered-walk.ts';
import { csvBody, type FileRows } from './csv-body.ts';
import { columnsFor, headerOf, KNOWN_COLUMNS } from './export-columns.ts';
import { createExportStream, type ExportStreamOptions } from './export-stream.ts';

async function readAll(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new Response(stream).text();
}

const lifecycle = {
  resetConnection: () => false,
  idleMs: 60_000,
  maxDurationMs: 600_000,
  minBytesPerSecond: 0,
  rateWindowMs: 60_000,
};
/** A row of `page()`: the id and its raw amount, then the other_fields column. */
const row = (id: string, other = '') => `"${id}",,,,,,,"1",,,,${other}`;
const page = (ids: string[], extra: Record<string, unknown> = {}): Payment[] =>
  ids.map((id) => ({ id, amount: 1, ...extra }));
const batch = (records: Payment[]): ViewRow[] => records.map((record) => ({ record, company: 'c' }));

/** A walk's batches after the first: `next` gives each (it may wait), then `end`. */
async function* walkOf(
  next: (n: number) => Promise<Payment[] | RowsEnd> | Payment[] | RowsEnd,
): AsyncGenerator<ViewRow[], RowsEnd> {
  for (let n = 1; ; n++) {
    const value = await next(n);
    if (!Array.isArray(value)) return value;
    yield batch(value);
  }
}

/** A CSV stream over the first page and the pages after it, columns from the first page. */
function exportOf(
  first: Payment[],
  rest: (n: number) => Promise<Payment[] | RowsEnd> | Payment[] | RowsEnd,
  options: Partial<ExportStreamOptions> = {},
  file: Partial<FileRows> = {},
) {
  const body = csvBody({
    timeZone: 'UTC',
    amountUnit: 'minor',
    group: false,
    columns: columnsFor(first),
    first: batch(first),
    rows: walkOf(rest),
    ...file,
  });
  return createExportStream({ ...lifecycle, body, ...options });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const done = (attempts: number): RowsEnd => ({ ok: true, attempts });

describe('CSV export stream', () => {
  it('writes every batch to the end; fields first seen later go to other_fields', async () => {
    const ends: unknown[] = [];
    const first = page(['p1']);
    first.push({ id: 'p1b', amount: 1, fee: 2 });
    const later = [page(['p2'], { late: 'x' }), page(['p3'])];
    const stream = exportOf(first, (n) => later[n - 1] ?? done(3), {
      onEnd: (outcome) => ends.push(outcome),
    });
    const lines = (await readAll(stream)).split('\r\n');
    expect(lines[0]).toBe(
      headerOf([...KNOWN_COLUMNS, 'fee', 'other_fields'], { timeZone: 'UTC', amountUnit: 'minor' })
        .map((c) => `"${c}"`)
        .join(','),
    );
    expect(lines.slice(1)).toEqual([
      row('p1', ','),
      row('p1b', '"2",'),
      row('p2', ',"{""late"":""x""}"'),
      row('p3', ','),
      '',
    ]);
    expect(ends).toEqual([{ end: 'complete', rows: 4, attempts: 3, failure: undefined }]);
  });

  it('starts the file with one UTF-8 byte order mark, for Excel', async () => {
    const stream = exportOf(page(['p1']), (n) => (n === 1 ? page(['Müller']) : done(2)));
    const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
    expect([...bytes.subarray(0, 6)]).toEqual([0xef, 0xbb, 0xbf, 0x22, 0x50, 0x61]); // BOM, then "Payment ID"
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
    expect(text.split('\uFEFF')).toHaveLength(2);
    expect(text).toContain('\r\n"Müller",');
  });

  it('keeps fields that have no column in other_fields, one named other_fields or __proto__ too', async () => {
    // As JSON.parse gives it: `__proto__` an own field, not the prototype.
    const odd = [JSON.parse('{"id":"p2","amount":1,"__proto__":{"fee":5}}') as Payment];
    const stream = exportOf(page(['p1'], { other_fields: 'kept' }), (n) => (n === 1 ? odd : done(2)));
    const lines = (await readAll(stream)).split('\r\n');
    expect(lines[0]).toBe(
      headerOf([...KNOWN_COLUMNS, 'other_fields'], { timeZone: 'UTC', amountUnit: 'minor' })
        .map((c) => `"${c}"`)
        .join(','),
    );
    expect(lines.slice(1)).toEqual([
      row('p1', '"{""other_fields"":""kept""}"'),
      row('p2', '"{""__proto__"":{""fee"":5}}"'),
      '',
    ]);
  });

  it('errors the stream when a later page fails, so the file cannot look complete', async () => {
    const failed: RowsEnd = {
      ok: false,
      failure: { code: 'upstream_timeout', status: 504, detail: 'slow' },
      attempts: 4,
    };
    const stream = exportOf(page(['p1']), () => failed);
    await expect(readAll(stream)).rejects.toThrow('export interrupted: upstream_timeout');
  });

  it('reads the next batch only when the reader asks (backpressure): at most one batch ahead', async () => {
    let fetched = 0;
    const stream = exportOf(page(['p0']), (n) => {
      fetched += 1;
      return page([`p${n}`]);
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

  it('makes the next page only once the client has taken all but 64 KB of what the socket was handed', async () => {
    // Pages of ten rows of 1 KB: the socket takes every byte at once, the client only what the test lets it.
    const wide = (n: number) =>
      page(
        Array.from({ length: 10 }, (_, i) => `p${n}-${i}`),
        { note: 'x'.repeat(1_000) },
      );
    let made = 0;
    let handed = 0;
    let taken = 0;
    const stream = exportOf(
      wide(0),
      (n) => {
        made = n;
        return n < 1_000 ? wide(n) : done(1);
      },
      { unsent: async () => handed - taken },
    );
    const reader = stream.getReader();
    /** What the socket takes in `ms`: every chunk the stream gives. */
    const socketTakes = async (ms: number) => {
      const until = performance.now() + ms;
      while (performance.now() < until) {
        const chunk = await Promise.race([
          reader.read(),
          sleep(until - performance.now()).then(() => undefined),
        ]);
        if (chunk?.value) handed += chunk.value.byteLength;
      }
    };
    await socketTakes(200);
    const pageBytes = handed / (made + 1);
    // The client took nothing: 64 KB handed, the page that crossed it, and the one made meanwhile for the
    // stream's queue (its pull comes as the socket takes a page, before the page is counted as handed).
    expect(handed).toBeLessThanOrEqual(64 * 1024 + 2 * pageBytes);
    expect(made).toBeLessThanOrEqual(Math.ceil((64 * 1024) / pageBytes) + 2);
    const madeBefore = made;
    // It takes ten pages: ten more are made, give or take the two pages of slack above, not a thousand.
    taken += 10 * pageBytes;
    await socketTakes(200);
    expect(made - madeBefore).toBeGreaterThanOrEqual(8);
    expect(made - madeBefore).toBeLessThanOrEqual(12);
    expect(handed - taken).toBeLessThanOrEqual(64 * 1024 + 2 * pageBytes);
    await reader.cancel();
  });

  it('ends a download whose reader takes nothing for the idle time, resetting the connection', async () => {
    const ends: { end: string }[] = [];
    let reset = 0;
    const stream = exportOf(page(['p0']), () => page(['p1']), {
      idleMs: 50,
      resetConnection: () => {
        reset += 1;
        return true;
      },
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
    const stream = exportOf(
      page(['p0']),
      async (n) => {
        await new Promise((resolve) => setTimeout(resolve, 100));
        return n === 1 ? page(['p1']) : done(2);
      },
      { idleMs: 30, onEnd: (outcome) => ends.push(outcome) },
    );
    expect((await readAll(stream)).split('\r\n')).toHaveLength(4);
    expect(ends.map((e) => e.end)).toEqual(['complete']);
  });

  it('ends a download that runs past the longest allowed, however fast it is read', async () => {
    const ends: { end: string }[] = [];
    const stream = exportOf(
      page(['p0']),
      async (n) => {
        await new Promise((resolve) => setTimeout(resolve, 10));
        return page([`p${n}`]);
      },
      { maxDurationMs: 80, onEnd: (outcome) => ends.push(outcome) },
    );
    await expect(readAll(stream)).rejects.toThrow('export interrupted: max_duration');
    expect(ends.map((e) => e.end)).toEqual(['max_duration']);
  });

  it("writes a group row's company as its company_id where the record names none", async () => {
    const first: ViewRow[] = [
      { record: { id: 'p1', amount: 1 }, company: 'acme-eu' },
      { record: { id: 'p1', amount: 1, company_id: 'own' }, company: 'acme-us' },
    ];
    const stream = exportOf([], () => done(1), {}, { group: true, columns: ['id', 'company_id'], first });
    expect((await readAll(stream)).split('\r\n').slice(1)).toEqual(['"p1","acme-eu"', '"p1","own"', '']);
  });

  it('ends a download whose reader takes fewer bytes a second than the floor, over a window of its time', async () => {
    const ends: { end: string; rows: number }[] = [];
    let reset = 0;
    const stream = exportOf(page(['p0']), (n) => page([`p${n}`]), {
      minBytesPerSecond: 5_000,
      rateWindowMs: 100,
      resetConnection: () => {
        reset += 1;
        return true;
      },
      onEnd: (outcome) => ends.push(outcome),
    });
    // The header, then about 20 bytes every 30 ms: some 700 B/s.
    const reader = stream.getReader();
    for (let i = 0; i < 20 && ends.length === 0; i++) {
      await reader.read();
      await sleep(30);
    }
    expect(ends.map((e) => e.end)).toEqual(['too_slow']);
    expect(ends[0]?.rows).toBeLessThan(8);
    expect(reset).toBe(1);
  });

  it('does not count a slow upstream against a reader that keeps up', async () => {
    const ends: { end: string }[] = [];
    // A page of some 20 bytes every 30 ms is under the floor by the clock, but the reader waits for none of it.
    const stream = exportOf(
      page(['p0']),
      async (n) => {
        await sleep(30);
        return n <= 8 ? page([`p${n}`]) : done(9);
      },
      { minBytesPerSecond: 2_000, rateWindowMs: 100, onEnd: (outcome) => ends.push(outcome) },
    );
    expect((await readAll(stream)).split('\r\n')).toHaveLength(11);
    expect(ends.map((e) => e.end)).toEqual(['complete']);
  });
});
