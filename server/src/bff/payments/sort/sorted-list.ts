import { createHash } from 'node:crypto';
import type { Sort } from '@payments/shared';
import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { BffEnv } from '../../bff-env.ts';
import { problemFrom, problemResponse } from '../../problem-response.ts';
import { type SummaryRuns, summaryKey } from '../summary/summary-runs.ts';
import type { View } from '../walk/view.ts';
import { busyWalks, type WalkPlaces } from '../walk/walk-places.ts';
import { type SortedSnapshot, type SortedViews, sortedKey } from './sorted-views.ts';

/**
 * A sorted list's cursor: `s~<offset>~<as_of>~<tag>`, in the snapshot of the view sorted as of `as_of` (epoch ms,
 * base 36), the tag naming the user, view, order and snapshot it belongs to.
 */
const SORTED_CURSOR = /^s~(\d{1,9})~([0-9a-z]{1,12})~([A-Za-z0-9_-]{16})$/;

const tagOf = (user: string, key: string, asOf: number) =>
  createHash('sha256')
    .update(JSON.stringify([user, key, asOf]))
    .digest('base64url')
    .slice(0, 16);

/** Whether a cursor is a sorted list's (the list route hands those here). */
export const isSortedCursor = (cursor: string) => SORTED_CURSOR.test(cursor);

/** What to say when a view holds more rows than may be sorted: how to narrow it. */
const tooLarge = (max: number) =>
  `this view holds more than ${max.toLocaleString('en')} payments, too many to sort; narrow it to a shorter period, one company, a status or a currency, or keep the newest-first order`;

/**
 * A page of a view in another order than the upstream's: the view walked and sorted once (sorted-views.ts), then
 * pages cut from it, so scrolling and opening a row ask the upstream nothing more. With `Accept:
 * text/event-stream`, `progress` events (`{ sorted, estimate }`: rows read, and the view's count when a summary
 * knows it) precede a `page` event with the page, or an `error` event. A page says `as_of`: every row of the
 * sorted view was read at or after it. A first page asked `fresh` at T is cut from a walk begun at or after T;
 * further pages come from the snapshot their first page did, or are refused `cursor_expired` once it is gone.
 */
export function sortedList(parts: {
  views: SortedViews;
  walks: WalkPlaces;
  runs: SummaryRuns;
  maxRows: number;
  walksPerUser: number;
  now: () => number;
}) {
  return async (
    c: Context<BffEnv>,
    view: View,
    query: { sort: Sort; limit: number; cursor: string | undefined; fresh: boolean },
  ): Promise<Response> => {
    const key = sortedKey(view, query.sort);
    // A Refresh promises rows read from now on: no snapshot or walk begun before it answers it.
    const notBefore = query.fresh && query.cursor === undefined ? parts.now() : undefined;
    const user = view.user.username;
    let at: { offset: number; asOf: number } | undefined;
    if (query.cursor !== undefined) {
      const match = SORTED_CURSOR.exec(query.cursor);
      if (!match) return problemResponse(c, 'invalid_parameter', 400, 'cursor is not one this server issued');
      const asOf = Number.parseInt(match[2] as string, 36);
      if (match[3] !== tagOf(user, key, asOf))
        return problemResponse(
          c,
          'cursor_mismatch',
          400,
          'this cursor belongs to other filters, another order, another company or another group; start again from the first page',
        );
      at = { offset: Number(match[1]), asOf };
    }
    const offset = at?.offset ?? 0;
    const page = ({ rows, asOf }: SortedSnapshot) => {
      const shown = rows.slice(offset, offset + query.limit);
      const end = offset + shown.length;
      const more = end < rows.length;
      return {
        data: shown.map((row) => row.record),
        next_cursor: more ? `s~${end}~${asOf.toString(36)}~${tagOf(user, key, asOf)}` : null,
        has_more: more,
        ...(view.group ? { company_ids: shown.map((row) => row.company) } : {}),
        /** Rows of the whole sorted view. */
        total: rows.length,
        as_of: new Date(asOf).toISOString(),
      };
    };
    if (at !== undefined) {
      // A next page is of the rows its first page was cut from: another snapshot could repeat or skip rows.
      const snapshot = parts.views.kept(key, { asOf: at.asOf });
      return snapshot
        ? c.json(page(snapshot), 200)
        : problemResponse(
            c,
            'cursor_expired',
            400,
            'this sorted list was left too long or sorted again since; start again from the first page',
          );
    }
    const ready = parts.views.kept(key, { notBefore: notBefore });
    if (ready) return c.json(page(ready), 200);
    const estimate = (await parts.runs.cached(summaryKey(view)))?.count ?? null;
    if (estimate !== null && estimate > parts.maxRows)
      return problemResponse(c, 'sort_too_large', 422, tooLarge(parts.maxRows));
    const place = await parts.walks.enter(view.user.username);
    if (place === null)
      return problemResponse(c, 'rate_limited', 429, busyWalks(parts.walksPerUser), { retryAfterSeconds: 5 });
    const sorting = (progress: (sorted: number) => void) =>
      parts.views
        .sorted(view, query.sort, { signal: c.req.raw.signal, progress, notBefore: notBefore })
        .then((outcome) => {
          if (outcome !== 'left') c.set('upstreamAttempts', c.get('upstreamAttempts') + outcome.attempts);
          return outcome;
        })
        .finally(() => place.leave());
    if (!(c.req.header('accept') ?? '').includes('text/event-stream')) {
      const outcome = await sorting(() => {});
      if (outcome === 'left') return c.body(null, 204);
      if (outcome.ok === 'too_large')
        return problemResponse(c, 'sort_too_large', 422, tooLarge(parts.maxRows));
      if (!outcome.ok) return problemFrom(c, outcome.failure);
      return c.json(page(outcome), 200);
    }
    return streamSSE(c, async (stream) => {
      let writing = Promise.resolve();
      // One progress event a page at most: the walk reads a page of up to 100 rows at a time.
      const progress = (sorted: number) => {
        writing = writing.then(() =>
          stream.writeSSE({ event: 'progress', data: JSON.stringify({ sorted, estimate }) }),
        );
      };
      const outcome = await sorting(progress);
      await writing;
      const problem = (code: string, status: number, detail: string) =>
        stream.writeSSE({ event: 'error', data: JSON.stringify({ code, status, detail }) });
      if (outcome === 'left') return;
      if (outcome.ok === 'too_large') await problem('sort_too_large', 422, tooLarge(parts.maxRows));
      else if (!outcome.ok) {
        if (!outcome.failure.aborted)
          await problem(outcome.failure.code, outcome.failure.status, outcome.failure.detail);
      } else await stream.writeSSE({ event: 'page', data: JSON.stringify(page(outcome)) });
    });
  };
}

export type SortedList = ReturnType<typeof sortedList>;
