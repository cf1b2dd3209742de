import type { Payment, PaymentPage } from '@payments/shared';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { UpstreamResult } from '../../../upstream/index.ts';
import { createGroupSource } from './group-merge.ts';

const at = (second: number) => new Date(Date.UTC(2026, 9, 1) + second * 1000).toISOString().slice(0, 19);

/** Newest first, then id descending: the order the merge expects. */
const newestFirst = (a: Payment, b: Payment) =>
  (b.created_at as string).localeCompare(a.created_at as string) || (b.id as number) - (a.id as number);

/**
 * One upstream with a keyset cursor per company (the key of the last row given), whose lists can grow at the top
 * between pages, as new payments arrive.
 */
function companiesUpstream(lists: Map<string, Payment[]>, size: number) {
  const requests: string[] = [];
  const fetchPage = async (company: string, cursor: string | null): Promise<UpstreamResult<PaymentPage>> => {
    requests.push(company);
    const rows = [...(lists.get(company) ?? [])].sort(newestFirst);
    const start = cursor === null ? 0 : rows.findIndex((r) => String(r.id) === cursor) + 1;
    const data = rows.slice(start, start + size);
    const more = start + size < rows.length;
    const last = data.at(-1);
    return {
      ok: true,
      attempts: 1,
      value: { data, next_cursor: more && last ? String(last.id) : null, has_more: more },
    };
  };
  return { fetchPage, requests };
}

describe('group merge', () => {
  it('walks to the sorted union of the companies, each row once, while payments arrive between pages', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 200 })), {
          maxLength: 80,
        }),
        fc.integer({ min: 1, max: 7 }),
        fc.integer({ min: 1, max: 9 }),
        fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 10 }),
        async (placed, size, limit, arrivals) => {
          const companies = ['a', 'b', 'c', 'd'];
          const lists = new Map<string, Payment[]>(companies.map((c) => [c, []]));
          for (const [i, [company, second]] of placed.entries())
            lists.get(companies[company] as string)?.push({ id: i, created_at: at(second) });
          const before = [...lists.values()].flat().sort(newestFirst);
          const upstream = companiesUpstream(lists, size);
          const source = createGroupSource(companies, {
            order: 'created_at_desc',
            timeZone: 'UTC',
            limit,
            concurrency: 2,
            fetchPage: upstream.fetchPage,
          });
          const walked: Payment[] = [];
          let cursor: string | undefined;
          for (let page = 0; page < 1_000; page++) {
            const requestsBefore = upstream.requests.length;
            const result = await source.fetchPage(cursor);
            if (!result.ok) throw new Error(result.failure.detail);
            expect(upstream.requests.length - requestsBefore).toBeLessThanOrEqual(companies.length);
            expect(result.value.data.length).toBeLessThanOrEqual(limit);
            for (const record of result.value.data) {
              expect(lists.get(source.companyOf(record) as string)).toContain(record);
              walked.push(record);
            }
            // A payment arrives at the top of a company's list (newer than everything so far).
            const arrival = arrivals[page];
            if (arrival !== undefined)
              lists
                .get(companies[arrival] as string)
                ?.push({ id: 10_000 + page, created_at: at(1_000 + page) });
            if (result.value.next_cursor === null) break;
            cursor = result.value.next_cursor;
          }
          expect(walked).toEqual(before);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('refuses a company page out of the expected order, naming the company, instead of merging it wrongly', async () => {
    const lists = new Map<string, Payment[]>([
      ['a', [{ id: 1, created_at: at(5) }]],
      [
        'b',
        [
          { id: 2, created_at: at(1) },
          { id: 3, created_at: at(9) },
        ],
      ],
    ]);
    const fetchPage = async (company: string): Promise<UpstreamResult<PaymentPage>> => ({
      ok: true,
      attempts: 1,
      value: { data: lists.get(company) ?? [], next_cursor: null, has_more: false },
    });
    const source = createGroupSource(['a', 'b'], {
      order: 'created_at_desc',
      timeZone: 'UTC',
      limit: 10,
      concurrency: 2,
      fetchPage,
    });
    const result = await source.fetchPage(undefined);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.failure.code).toBe('upstream_bad_response');
      expect(result.failure.detail).toMatch(/b's payments out of the order created_at_desc \(data\[1\]\)/);
    }
  });

  it('refuses a cursor that names a company no longer in the group', async () => {
    const fetchPage = async (): Promise<UpstreamResult<PaymentPage>> => ({
      ok: true,
      attempts: 1,
      value: { data: [], next_cursor: null, has_more: false },
    });
    const options = {
      order: 'created_at_desc' as const,
      timeZone: 'UTC',
      limit: 10,
      concurrency: 2,
      fetchPage,
    };
    const cursor = JSON.stringify({
      companies: [{ company: 'gone', cursor: null, done: false }],
      after: null,
    });
    const result = await createGroupSource(['a'], options).fetchPage(cursor);
    expect(result).toMatchObject({ ok: false, failure: { code: 'cursor_mismatch' } });
  });
});
