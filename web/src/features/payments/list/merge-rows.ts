import type { Payment, PaymentPage } from '@payments/shared';
import { KNOWN_PAYMENT_FIELDS } from '@payments/shared/rules';

/** A loaded page; a group's names each row's company in `company_ids`, parallel to `data`. */
type LoadedPage = PaymentPage & { company_ids?: readonly string[] | undefined };

export interface MergedRows {
  rows: Payment[];
  /** The company of each row where the page said it (a group's list), parallel to `rows`. */
  companyIds: Array<string | undefined>;
  /** Keys of the records beyond the known ones, in order of first appearance. */
  extraFields: string[];
  /** Statuses seen in the data, in order of first appearance. */
  statuses: string[];
}

// Known fields have their own columns; any other field is offered as an opt-in column.
const known = new Set<string>(KNOWN_PAYMENT_FIELDS);

/**
 * Flattens loaded pages into one list of rows, keeping the first copy of each `id` (a row that moved between
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
  return (pages) => {
    const continues = done.length <= pages.length && done.every((page, i) => pages[i] === page);
    if (!continues) {
      seen = new Set();
      extras = new Set();
      statuses = new Set();
      rows = [];
      companyIds = [];
      done = [];
    }
    rows = rows.slice(); // a new array each time: React and the table compare data by identity
    companyIds = companyIds.slice();
    for (const page of pages.slice(done.length)) {
      for (const [index, row] of page.data.entries()) {
        const id = String(row.id);
        if (seen.has(id)) continue;
        seen.add(id);
        rows.push(row);
        companyIds.push(page.company_ids?.[index]);
        if (typeof row.status === 'string') statuses.add(row.status);
        for (const key in row) if (!known.has(key)) extras.add(key);
      }
    }
    done = pages;
    return { rows, companyIds, extraFields: [...extras], statuses: [...statuses] };
  };
}
