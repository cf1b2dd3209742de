import type { Payment, PaymentPage } from '@payments/shared';
import { KNOWN_PAYMENT_FIELDS } from '@payments/shared/rules';

interface MergedRows {
  rows: Payment[];
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
export function createRowMerger(): (pages: readonly PaymentPage[]) => MergedRows {
  let done: readonly PaymentPage[] = [];
  let seen = new Set<string>();
  let extras = new Set<string>();
  let statuses = new Set<string>();
  let rows: Payment[] = [];
  return (pages) => {
    const continues = done.length <= pages.length && done.every((page, i) => pages[i] === page);
    if (!continues) {
      seen = new Set();
      extras = new Set();
      statuses = new Set();
      rows = [];
      done = [];
    }
    rows = rows.slice(); // a new array each time: React and the table compare data by identity
    for (const page of pages.slice(done.length)) {
      for (const row of page.data) {
        const id = String(row.id);
        if (seen.has(id)) continue;
        seen.add(id);
        rows.push(row);
        if (typeof row.status === 'string') statuses.add(row.status);
        for (const key in row) if (!known.has(key)) extras.add(key);
      }
    }
    done = pages;
    return { rows, extraFields: [...extras], statuses: [...statuses] };
  };
}
