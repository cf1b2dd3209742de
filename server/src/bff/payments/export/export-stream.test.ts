import type { PaymentPage } from '@payments/shared';
import { describe, expect, it } from 'vitest';
import type { UpstreamResult } from '../../../upstream/index.ts';
import { KNOWN_COLUMNS } from './export-columns.ts';
import { createCsvExportStream } from './export-stream.ts';

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
