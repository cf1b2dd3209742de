import type { Payment, PaymentPage } from '@payments/shared';
import { KNOWN_PAYMENT_FIELDS } from '@payments/shared/rules';
import { paymentCompanyId } from '../fields/company-names.ts';

/** A loaded page; a group's names each row's company in `company_ids`, parallel to `data`. */
type LoadedPage = PaymentPage & { company_ids?: readonly string[] | undefined };

export interface MergedRows {
  rows: Payment[];
  /** The company of each row where the page said it (a group's list), parallel to `rows`. */
  companyIds: Array<string | undefined>;
  /** Each row's identity (rowIdentity), parallel to `rows`: its React key, unique in the list. */
  keys: string[];
  /** Keys of the records beyond the known ones, in order of first appearance. */
  extraFields: string[];
  /** Statuses seen in the data, in order of first appearance. */
  statuses: string[];
}

// Known fields have their own columns; any other field is offered as an opt-in column.
const known = new Set<string>(KNOWN_PAYMENT_FIELDS);

/**
 * A row's identity as one string: its company (the one its page named, else its record's `company_id`) and its
 * id. Ids repeat across companies (each may number its payments 1, 2, 3…), so a group's list needs both; the
 * length prefix keeps a company from running into the id.
 */
export function rowIdentity(row: Payment, listedCompanyId: string | undefined): string {
  const company = paymentCompanyId(row, listedCompanyId, '');
  return `${company.length}:${company}:${row.id}`;
}

/**
 * Flattens loaded pages into one list of rows, keeping the first copy of each row (a row that moved between
 * pages while paging must not show twice), and collects the unknown fields and statuses the rows carry. When the
 * pages start with the pages of the previous call (the same objects, as an infinite query appends), only the new
 * pages are walked: with tens of thousands of rows loaded, each appended page costs its own rows, not the whole
 * list again.
 */
export function createRowMerger(): (pages: readonly LoadedPage[]) => MergedRows {
  let done: readonly LoadedPage[] = [];
  let seen = new Set<string>();
  let extras = new Set<string>();
  let statuses = new Set<string>();
  let rows: Payment[] = [];
  let companyIds: Array<string | undefined> = [];
  let keys: string[] = [];
  return (pages) => {
    const continues = done.length <= pages.length && done.every((page, i) => pages[i] === page);
    if (!continues) {
      seen = new Set();
      extras = new Set();
      statuses = new Set();
      rows = [];
      companyIds = [];
      keys = [];
      done = [];
    }
    rows = rows.slice(); // a new array each time: React and the table compare data by identity
    companyIds = companyIds.slice();
    keys = keys.slice();
    for (const page of pages.slice(done.length)) {
      for (const [index, row] of page.data.entries()) {
        const companyId = page.company_ids?.[index];
        const key = rowIdentity(row, companyId);
        if (seen.has(key)) continue;
        seen.add(key);
        rows.push(row);
        companyIds.push(companyId);
        keys.push(key);
        if (typeof row.status === 'string') statuses.add(row.status);
        for (const field in row) if (!known.has(field)) extras.add(field);
      }
    }
    done = pages;
    return { rows, companyIds, keys, extraFields: [...extras], statuses: [...statuses] };
  };
}
