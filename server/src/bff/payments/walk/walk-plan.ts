import { compareDecimals, majorAmount, type Payment, wallTimeToInstant } from '@payments/shared';
import type { ListOrder } from '../../../config/settings.ts';
import type { RequestClass } from '../../../upstream/index.ts';
import type { Checkpoint, RememberedPositions, UpstreamFilters } from './checkpoints.ts';
import type { CompanyWalk, Position, Range } from './company-reader.ts';
import { direction } from './row-key.ts';
import type { View } from './view.ts';

/** The spec's largest page: every walk that reads more than a person sees asks for it. */
export const WALK_PAGE_SIZE = 100;

/** The instants a view's period keeps: date_from from its first second, date_to through its last. */
export function rangeOf(view: Pick<View, 'filters' | 'date_to'>, timeZone: string): Range {
  const from = view.filters.date_from && wallTimeToInstant(view.filters.date_from, timeZone);
  const to = view.date_to && wallTimeToInstant(view.date_to, timeZone);
  return {
    from: typeof from === 'number' ? from : undefined,
    // Inclusive of the whole second: 23:59:59 keeps 23:59:59.999.
    to: typeof to === 'number' ? to + 999 : undefined,
  };
}

/**
 * Whether a row lies within the view's amount range, read as the table reads it (major units of its own currency);
 * an amount that cannot be read is in no range.
 */
function amountWithin(view: Pick<View, 'amount'>): ((record: Payment) => boolean) | undefined {
  const range = view.amount;
  if (range === undefined) return undefined;
  return (record) => {
    const amount = majorAmount(record.amount, record.currency, range.unit);
    return (
      amount !== null &&
      (range.min === undefined || compareDecimals(amount, range.min) >= 0) &&
      (range.max === undefined || compareDecimals(amount, range.max) <= 0)
    );
  };
}

/**
 * A company's walk with the given upstream filters: what the upstream is not asked to filter is kept here. The
 * upstream takes one status: a view of several is walked unfiltered and its statuses kept here, one walk rather
 * than one per status merged, since its remembered positions (those of the unfiltered list, which every
 * unfiltered summary and list leaves) serve it and the rows of the other statuses cost pages, not requests per
 * status.
 */
export function companyWalk(
  view: View,
  company: string,
  filters: UpstreamFilters,
  how: {
    timeZone: string;
    cls: RequestClass;
    signal: AbortSignal;
    tally?: { attempts: number } | undefined;
    notBefore?: number | undefined;
  },
): CompanyWalk {
  const statuses = filters.status === undefined ? view.statuses : undefined;
  const currencies = view.currencies;
  const within = amountWithin(view);
  const matches = view.search?.matches;
  const keep =
    statuses || currencies || within || matches
      ? (record: Payment) =>
          (!statuses || statuses.includes(record.status as string)) &&
          (!currencies || currencies.includes(record.currency as string)) &&
          (!within || within(record)) &&
          (!matches || matches(record))
      : undefined;
  const range = rangeOf(view, how.timeZone);
  return {
    company,
    filters,
    range,
    // Stopping early, merging companies and jumping to remembered positions rely on the list's order.
    ordered:
      view.group || range.to !== undefined || (range.from !== undefined && filters.date_from === undefined),
    keep,
    cls: how.cls,
    user: view.user.username,
    signal: how.signal,
    tally: how.tally,
    notBefore: how.notBefore,
  };
}

/** The position remembered nearest above `to` under exactly these filters: where a walk starts; else the top. */
async function startFor(
  company: string,
  filters: UpstreamFilters,
  to: number | undefined,
  parts: { checkpoints: RememberedPositions; limit: number },
): Promise<Position> {
  const near = to === undefined ? undefined : await parts.checkpoints.nearest(company, filters, to, true);
  if (!near) return { cursor: null, skip: 0, limit: parts.limit };
  return {
    cursor: near.cursor,
    skip: 0,
    limit: parts.limit,
    head: near.next,
    prev: near.boundary,
    checkpoint: near,
    issuedAt: near.issuedAt,
  };
}

/**
 * Where a company's walk of a view starts, and with which upstream filters. Without a date_to, from the top with
 * the view's own filters. With newest first and a date_to, date_from is not sent (the walk stops at the first
 * older row, so it costs nothing), so positions remembered by any walk of the company serve, and the walk starts
 * at the one nearest above date_to; a status is sent, or applied here to an unfiltered walk when that company's
 * remembered positions make that cheaper (fewer pages read). With oldest first, date_from is what brings the
 * walk to its start: sent.
 */
export async function planStart(
  view: View,
  company: string,
  parts: { checkpoints: RememberedPositions; order: ListOrder; timeZone: string; limit: number },
): Promise<{ filters: UpstreamFilters; start: Position }> {
  const { status, date_from } = view.filters;
  const range = rangeOf(view, parts.timeZone);
  if (parts.order === 'created_at_asc' || range.to === undefined)
    return { filters: { status, date_from }, start: { cursor: null, skip: 0, limit: parts.limit } };
  const to = range.to;
  const from = range.from ?? -Number.MAX_SAFE_INTEGER;
  const candidates: UpstreamFilters[] = status === undefined ? [{}] : [{ status }, {}];
  const pagesAbove = await parts.checkpoints.count(company, {}, to + 1, Number.MAX_SAFE_INTEGER);
  const plans = await Promise.all(
    candidates.map(async (filters) => {
      const start = await startFor(company, filters, to, parts);
      const inside = await parts.checkpoints.count(company, filters, from, to);
      // Without a position to start from, the pages above the range are read: as many as the unfiltered list
      // has remembered there at most (a status filter has fewer), unknown when nothing is.
      const above = start.checkpoint ? 0 : pagesAbove > 0 ? pagesAbove : Number.MAX_SAFE_INTEGER / 4;
      return { filters, start, cost: above + inside };
    }),
  );
  const best = plans.reduce((a, b) => (b.cost < a.cost ? b : a));
  return { filters: best.filters, start: best.start };
}

/** Parts a walk is split into at most: enough to keep a rate of 40 requests a second busy at 100 ms a page. */
const MAX_PARTS = 8;
/** Pages a part should have at least, so that splitting saves more than it costs. */
const PAGES_PER_PART = 3;

/**
 * A walk of a whole range (a summary, an export, a search): where it starts, with which upstream filters, and the
 * remembered positions inside the range where it is split into parts walked at once. Of the filter sets whose
 * cursors could serve (the view's own, or fewer with the rest applied here), the one with a start and the most
 * remembered positions inside the range is taken.
 */
export async function planWalk(
  view: View,
  company: string,
  parts: { checkpoints: RememberedPositions; order: ListOrder; timeZone: string },
) {
  const { status, date_from } = view.filters;
  const range = rangeOf(view, parts.timeZone);
  const desc = parts.order === 'created_at_desc';
  const exact: UpstreamFilters = desc && range.to !== undefined ? { status } : { status, date_from };
  const candidates = desc ? [exact, { status }, {}] : [exact];
  const seen = new Set<string>();
  const min = range.from ?? -Number.MAX_SAFE_INTEGER;
  const max = range.to ?? Number.MAX_SAFE_INTEGER;
  let best: { filters: UpstreamFilters; start: Position; inside: number } | undefined;
  for (const filters of candidates) {
    const key = JSON.stringify([filters.status ?? null, filters.date_from ?? null]);
    if (seen.has(key)) continue;
    seen.add(key);
    const start = await startFor(company, filters, desc ? range.to : undefined, {
      ...parts,
      limit: WALK_PAGE_SIZE,
    });
    // A range from the top needs no start; one with an end needs a remembered start to be worth splitting.
    const usable = range.to === undefined || !desc || start.checkpoint !== undefined;
    const inside = usable ? await parts.checkpoints.count(company, filters, min, max) : -1;
    if (best === undefined || inside > best.inside) best = { filters, start, inside };
  }
  const chosen = best as { filters: UpstreamFilters; start: Position; inside: number };
  const wanted = Math.min(MAX_PARTS, Math.floor(chosen.inside / PAGES_PER_PART));
  const found = wanted > 1 ? await parts.checkpoints.splits(company, chosen.filters, min, max, wanted) : [];
  // Parts follow each other in the order of their first rows. Rows of one instant are listed in an order only the
  // upstream knows, so two parts may not start at the same instant: one start per instant, strictly in list order.
  const { compare } = direction(parts.order);
  const byStart = found.toSorted((a, b) => compare(a.next.at, b.next.at));
  const splits: Checkpoint[] = [];
  let last = chosen.start.checkpoint?.next.at;
  for (const split of byStart)
    if (last === undefined || compare(split.next.at, last) > 0) {
      splits.push(split);
      last = split.next.at;
    }
  return { filters: chosen.filters, start: chosen.start, splits };
}
