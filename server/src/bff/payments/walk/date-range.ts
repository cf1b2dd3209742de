import { instantOf, type Payment, type PaymentPage, wallTimeToInstant } from '@payments/shared';
import type { UpstreamResult } from '../../../upstream/index.ts';

/** How many whole pages newer than date_to one list request follows past before asking for a narrower range. */
export const DEFAULT_MAX_SKIP_PAGES = 2_000;

/**
 * The rows a date_to keeps: created at or before its second, in the configured zone. A row whose created_at
 * cannot be read as a time cannot be placed in the period, so a period leaves it out. Undefined: no date_to.
 */
export function keepUpTo(
  dateTo: string | undefined,
  timeZone: string,
): ((record: Payment) => boolean) | undefined {
  if (dateTo === undefined) return undefined;
  // Inclusive of the whole second: 23:59:59 keeps 23:59:59.999.
  const end = (wallTimeToInstant(dateTo, timeZone) ?? Number.NaN) + 1000;
  return (record) => {
    const at = instantOf(record.created_at, timeZone);
    return at !== null && at < end;
  };
}

export type RangedPage = UpstreamResult<PaymentPage> | { ok: 'too_wide'; attempts: number };

/**
 * The next page the browser sees when some rows are not shown (those newer than a date_to the upstream cannot
 * apply; a merged page that could not show any yet): whole pages without a row to show are followed past, so a
 * page is empty only at the end of the list. Every row is checked, whatever the upstream's order; with newest
 * first, the skipping ends at the first page that reaches into the range.
 */
export async function nextPageUpTo(
  fetchPage: (cursor: string | undefined) => Promise<UpstreamResult<PaymentPage>>,
  cursor: string | undefined,
  keep: (record: Payment) => boolean,
  maxSkipPages: number,
): Promise<RangedPage> {
  let attempts = 0;
  for (let skipped = 0; ; skipped++) {
    const result = await fetchPage(cursor);
    attempts += result.attempts;
    if (!result.ok) return { ...result, attempts };
    const page = result.value;
    const data = page.data.filter(keep);
    if (data.length > 0 || page.next_cursor === null) return { ok: true, value: { ...page, data }, attempts };
    if (skipped + 1 >= maxSkipPages) return { ok: 'too_wide', attempts };
    cursor = page.next_cursor;
  }
}
