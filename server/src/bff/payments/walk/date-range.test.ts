import type { Payment, PaymentPage } from '@payments/shared';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { UpstreamResult } from '../../../upstream/index.ts';
import { keepUpTo, nextPageUpTo } from './date-range.ts';

/** An upstream over `rows` in the given order, `size` rows a page, its cursor the next offset. */
function upstreamOver(rows: Payment[], size: number) {
  let calls = 0;
  const fetchPage = async (cursor: string | undefined): Promise<UpstreamResult<PaymentPage>> => {
    calls += 1;
    const from = Number(cursor ?? 0);
    const data = rows.slice(from, from + size);
    const more = from + size < rows.length;
    return {
      ok: true,
      value: { data, next_cursor: more ? String(from + size) : null, has_more: more },
      attempts: 1,
    };
  };
  return { fetchPage, calls: () => calls };
}

const second = (n: number) => new Date(Date.UTC(2026, 9, 1) + n * 1000).toISOString().slice(0, 19);

describe('date_to over an upstream without it', () => {
  it('keeps rows created at or before date_to, to the end of its second, in the configured zone', () => {
    const keep = keepUpTo('2026-10-01T12:00:00', 'Europe/Berlin');
    expect(keep?.({ id: 1, created_at: '2026-10-01T12:00:00' })).toBe(true);
    expect(keep?.({ id: 2, created_at: '2026-10-01T10:00:00.999Z' })).toBe(true);
    expect(keep?.({ id: 3, created_at: '2026-10-01T10:00:01Z' })).toBe(false);
    expect(keep?.({ id: 4, created_at: 'yesterday' })).toBe(false);
    expect(keepUpTo(undefined, 'UTC')).toBeUndefined();
  });

  it('walks to exactly the filtered list, whatever the order, each page non-empty but the last', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: 500 }), { maxLength: 120 }),
        fc.integer({ min: 1, max: 15 }),
        fc.integer({ min: 0, max: 500 }),
        fc.boolean(),
        async (seconds, size, cut, newestFirst) => {
          const rows = seconds.map((n, i) => ({ id: i, created_at: second(n) }));
          if (newestFirst) rows.sort((a, b) => (a.created_at < b.created_at ? 1 : -1));
          const keep = keepUpTo(second(cut), 'UTC') as (r: Payment) => boolean;
          const { fetchPage } = upstreamOver(rows, size);
          const walked: Payment[] = [];
          let cursor: string | undefined;
          for (;;) {
            const page = await nextPageUpTo(fetchPage, cursor, keep, 10_000);
            if (page.ok !== true) throw new Error('walk failed');
            if (page.value.next_cursor !== null) expect(page.value.data.length).toBeGreaterThan(0);
            walked.push(...page.value.data);
            if (page.value.next_cursor === null) break;
            cursor = page.value.next_cursor;
          }
          expect(walked).toEqual(rows.filter(keep));
        },
      ),
    );
  });

  it('with the newest first, stops following pages at the first one that reaches into the range', async () => {
    const rows = Array.from({ length: 1_000 }, (_, i) => ({ id: i, created_at: second(1_000 - i) }));
    const { fetchPage, calls } = upstreamOver(rows, 100);
    const page = await nextPageUpTo(
      fetchPage,
      undefined,
      keepUpTo(second(450), 'UTC') as (r: Payment) => boolean,
      100,
    );
    expect(page.ok === true && page.value.data[0]).toEqual({ id: 550, created_at: second(450) });
    expect(calls()).toBe(6);
  });

  it('asks for a narrower range after the most pages it may follow past', async () => {
    const rows = Array.from({ length: 1_000 }, (_, i) => ({ id: i, created_at: second(1_000 - i) }));
    const { fetchPage, calls } = upstreamOver(rows, 10);
    const page = await nextPageUpTo(
      fetchPage,
      undefined,
      keepUpTo(second(5), 'UTC') as (r: Payment) => boolean,
      20,
    );
    expect(page).toEqual({ ok: 'too_wide', attempts: 20 });
    expect(calls()).toBe(20);
  });
});
