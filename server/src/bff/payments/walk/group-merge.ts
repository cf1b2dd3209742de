import { instantOf, type Payment, type PaymentPage } from '@payments/shared';
import type { ListOrder } from '../../../config/settings.ts';
import type { UpstreamFailure, UpstreamResult } from '../../../upstream/index.ts';

/** Where a row sits in the merged list's order: its instant, then its id, then its company (ids may repeat). */
type RowKey = [instant: number, id: string | number, company: string];

/** One company's place in a merged walk: the upstream cursor of the page that holds its next row (null: the first). */
export interface CompanyPosition {
  company: string;
  cursor: string | null;
  done: boolean;
}

/**
 * Where a merged walk stands: each company's page, and the key of the last row shown. Resuming re-reads each page
 * and passes over every row up to that key, so a row is never shown twice nor skipped, and payments that arrived
 * meanwhile (at the top, before that key) do not appear in the middle of the list.
 */
export interface MergePosition {
  companies: CompanyPosition[];
  after: RowKey | null;
}

export type MergedPage =
  | { ok: true; data: Payment[]; companies: string[]; position: MergePosition; attempts: number }
  | { ok: false; failure: UpstreamFailure; attempts: number };

export function startPosition(companies: readonly string[]): MergePosition {
  return { companies: companies.map((company) => ({ company, cursor: null, done: false })), after: null };
}

function compareIds(a: string | number, b: string | number): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
}

/**
 * Runs `tasks` with at most `limit` at once, keeping their order in the results: a group of many companies must
 * not open a socket per company at once for every browser.
 */
async function capped<T>(tasks: (() => Promise<T>)[], limit: number): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const index = next++;
      results[index] = await (tasks[index] as () => Promise<T>)();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  return results;
}

export interface MergeOptions {
  order: ListOrder;
  timeZone: string;
  limit: number;
  /** Upstream requests in flight at once for one merged page. */
  concurrency: number;
  fetchPage(company: string, cursor: string | null): Promise<UpstreamResult<PaymentPage>>;
}

/**
 * The next page of one list merged from several companies' lists, in the upstream's order (created_at, then id),
 * at most one upstream request per company. A row is shown only when every company that may still hold an earlier
 * one has a row to compare it with, so a page can hold fewer rows than `limit`, or none while companies move on.
 */
export async function nextMergedPage(position: MergePosition, options: MergeOptions): Promise<MergedPage> {
  const sign = options.order === 'created_at_desc' ? -1 : 1;
  /** Negative when `a` comes first in the list's order. */
  const compare = (a: RowKey, b: RowKey) =>
    sign * (a[0] - b[0] || compareIds(a[1], b[1]) || (a[2] < b[2] ? -1 : a[2] > b[2] ? 1 : 0));
  const keyOf = (record: Payment, company: string): RowKey | null => {
    const instant = instantOf(record.created_at, options.timeZone);
    const id = record.id;
    return instant === null || (typeof id !== 'string' && typeof id !== 'number')
      ? null
      : [instant, id, company];
  };

  const open = position.companies.filter((p) => !p.done);
  const pages = await capped(
    open.map((company) => () => options.fetchPage(company.company, company.cursor)),
    options.concurrency,
  );
  let attempts = 0;
  const buffers: {
    company: CompanyPosition;
    rows: { record: Payment; key: RowKey }[];
    next: string | null;
  }[] = [];
  for (const [i, result] of pages.entries()) {
    attempts += result.attempts;
    if (!result.ok) return { ok: false, failure: result.failure, attempts };
    const company = open[i] as CompanyPosition;
    const rows: { record: Payment; key: RowKey }[] = [];
    let previous: RowKey | null = null;
    for (const [index, record] of result.value.data.entries()) {
      const key = keyOf(record, company.company);
      if (key === null || (previous !== null && compare(previous, key) > 0))
        return {
          ok: false,
          failure: {
            code: 'upstream_bad_response',
            status: 502,
            detail: `the payments service listed ${company.company}'s payments out of the order ${options.order} (data[${index}]): the group view cannot merge them`,
          },
          attempts,
        };
      previous = key;
      if (position.after === null || compare(position.after, key) < 0) rows.push({ record, key });
    }
    buffers.push({ company, rows, next: result.value.next_cursor });
  }

  const data: Payment[] = [];
  const companies: string[] = [];
  let after = position.after;
  while (data.length < options.limit) {
    // A company whose page is used up but that has more pages may hold the next row: the page ends here.
    if (buffers.some((b) => b.rows.length === 0 && b.next !== null)) break;
    let first: (typeof buffers)[number] | undefined;
    for (const buffer of buffers) {
      const head = buffer.rows[0];
      if (head && (!first || compare(head.key, (first.rows[0] as { key: RowKey }).key) < 0)) first = buffer;
    }
    if (!first) break;
    const { record, key } = first.rows.shift() as { record: Payment; key: RowKey };
    after = key;
    data.push(record);
    companies.push(first.company.company);
  }
  const moved = position.companies.map((company) => {
    const buffer = buffers.find((b) => b.company.company === company.company);
    // A page all shown moves its company on to the next page, or ends it.
    if (!buffer || buffer.rows.length > 0) return company;
    return { company: company.company, cursor: buffer.next, done: buffer.next === null };
  });
  return { ok: true, data, companies, position: { companies: moved, after }, attempts };
}

/**
 * A group's merged list seen as one list with string cursors (the companies' positions as JSON), so the list
 * route, the date_to skipping, the export and the summary walk it as they walk one company's list. Which company
 * a row is from is kept beside it, never written into the record.
 */
export function createGroupSource(members: readonly string[], options: MergeOptions) {
  const companyOf = new WeakMap<Payment, string>();
  return {
    companyOf: (record: Payment) => companyOf.get(record),
    /** The position a cursor this source made stands for; null when it names a company outside the group. */
    positionOf(cursor: string | undefined): MergePosition | null {
      if (cursor === undefined) return startPosition(members);
      const position = JSON.parse(cursor) as MergePosition;
      return position.companies.every((p) => members.includes(p.company)) ? position : null;
    },
    async fetchPage(cursor: string | undefined): Promise<UpstreamResult<PaymentPage>> {
      const position = this.positionOf(cursor);
      if (position === null)
        return {
          ok: false,
          attempts: 0,
          failure: {
            code: 'cursor_mismatch',
            status: 400,
            detail: 'the group has changed; start again from the first page',
          },
        };
      const page = await nextMergedPage(position, options);
      if (!page.ok) return page;
      for (const [i, record] of page.data.entries()) companyOf.set(record, page.companies[i] as string);
      const more = page.position.companies.some((p) => !p.done);
      return {
        ok: true,
        attempts: page.attempts,
        value: { data: page.data, next_cursor: more ? JSON.stringify(page.position) : null, has_more: more },
      };
    },
  };
}
