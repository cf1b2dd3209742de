import { COMPANY_HEADER, listQuerySchema } from '@payments/shared';
import { Hono } from 'hono';
import type { Settings } from '../../../config/settings.ts';
import type { Held } from '../../../shared-state/index.ts';
import type { BffEnv } from '../../bff-env.ts';
import { validQuery } from '../../middleware/query-validator.ts';
import { problemFrom, problemResponse } from '../../problem-response.ts';
import { isSortedCursor, type SortedList } from '../sort/sorted-list.ts';
import { type Checkpoints, positionsFor, REPLANS } from '../walk/checkpoints.ts';
import type { CompanyReader } from '../walk/company-reader.ts';
import type { CompanyScope } from '../walk/company-scope.ts';
import type { ListCursors } from '../walk/list-cursor.ts';
import { type ListPage, type MemberPlace, nextListPage } from '../walk/list-page.ts';
import { resumingReader } from '../walk/list-resume.ts';
import { type View, viewOf } from '../walk/view.ts';
import { busyWalks, type WalkPlaces } from '../walk/walk-places.ts';
import { companyWalk, planStart, WALK_PAGE_SIZE } from '../walk/walk-plan.ts';

/** Whether the list passes over rows the upstream sends (newer than date_to, of other currencies). */
const skips = (view: View) =>
  view.date_to !== undefined ||
  view.currencies !== undefined ||
  view.amount !== undefined ||
  (view.statuses !== undefined && view.filters.status === undefined);

/** A list request reads its first pages as a page a person waits for; further ones skip, as a walk does. */
const PAGE_CLASS_READS = 2;
/** How often a first page starts again without a remembered position that proved wrong. */

/**
 * `GET /api/payments`: one page of a view, of one company or merged from a group's. Scope first, then the cursor,
 * then (and only then) the upstream.
 */
export function listRoute(parts: {
  settings: Pick<
    Settings,
    | 'PAYMENTS_TIME_ZONE'
    | 'PAYMENTS_AMOUNT_UNIT'
    | 'PAYMENTS_LIST_ORDER'
    | 'DATE_TO_MAX_SKIP_PAGES'
    | 'WALKS_PER_USER'
  >;
  scope: CompanyScope;
  cursors: ListCursors;
  read: CompanyReader;
  checkpoints: Checkpoints;
  walks: WalkPlaces;
  /** Pages of a view in another order than the upstream's. */
  sorted: SortedList;
}) {
  const { settings, cursors } = parts;
  const order = settings.PAYMENTS_LIST_ORDER;
  const timeZone = settings.PAYMENTS_TIME_ZONE;

  /** Where each company of a view starts: a person's page size when every row is shown, else the largest. */
  const startPlaces = (view: View, limit: number, replan = 0) => {
    const filtersRows = skips(view);
    const pageSize = filtersRows ? WALK_PAGE_SIZE : limit;
    return Promise.all(
      view.members.map(async (company): Promise<MemberPlace> => {
        const { filters, start } = await planStart(view, company, {
          checkpoints: positionsFor(replan, parts.checkpoints),
          order,
          timeZone,
          limit: pageSize,
        });
        return { company, filters, position: start };
      }),
    );
  };

  return new Hono<BffEnv>().get('/', validQuery(listQuerySchema), async (c) => {
    const { limit, cursor, sort, fresh, ...query } = c.req.valid('query');
    const chosen = viewOf(c.get('user'), c.req.header(COMPANY_HEADER), parts.scope, query, {
      amountUnit: settings.PAYMENTS_AMOUNT_UNIT,
    });
    if (!chosen.ok) return problemFrom(c, chosen);
    const { view } = chosen;
    // Any order but the upstream's own is a sorted view, walked and kept by the BFF.
    const upstreamSort = order === 'created_at_desc' ? 'created_at:desc' : 'created_at:asc';
    if ((sort !== undefined && sort !== upstreamSort) || (cursor !== undefined && isSortedCursor(cursor)))
      // Typed as nothing: the route's client type stays the page's (a sorted page has the same fields and `total`).
      return (await parts.sorted(c, view, {
        sort: sort ?? upstreamSort,
        limit,
        cursor,
        fresh: fresh === 'true',
      })) as never;
    const binding = { user: view.user.username, company: view.company, ...query };
    let places: MemberPlace[];
    if (cursor !== undefined) {
      const opened = await cursors.open(cursor, binding);
      if (!opened.ok && opened.reason === 'expired')
        return problemResponse(
          c,
          'cursor_expired',
          400,
          'this list was left too long; start again from the first page',
        );
      if (!opened.ok || !opened.places.every((place) => view.members.includes(place.company)))
        return opened.ok || opened.reason === 'mismatch'
          ? problemResponse(
              c,
              'cursor_mismatch',
              400,
              'this cursor belongs to other filters, another company or another group; start again from the first page',
            )
          : problemResponse(c, 'invalid_parameter', 400, 'cursor is not one this server issued');
      places = opened.places;
    } else places = await startPlaces(view, limit);

    // A list that skips pages (to a date_to, past other currencies) walks: it takes one of the user's walk places.
    const place = skips(view) ? await parts.walks.enter(view.user.username) : undefined;
    if (place === null)
      return problemResponse(c, 'rate_limited', 429, busyWalks(settings.WALKS_PER_USER), {
        retryAfterSeconds: 5,
      });
    let found: Held | null | undefined;
    // A next page whose upstream cursor expired goes on from the last row the list showed: finding it again is a
    // walk, in the list's walk place or one of its own.
    const read = resumingReader(parts.read, {
      checkpoints: parts.checkpoints,
      order,
      maxPages: settings.DATE_TO_MAX_SKIP_PAGES,
      enter: async () => {
        if (place !== undefined) return true;
        found ??= await parts.walks.enter(view.user.username);
        return found !== null;
      },
    });
    let reads = 0;
    // A Refresh's first page takes no upstream page asked for before it (the upstream client reuses recent ones).
    const notBefore = fresh === 'true' && cursor === undefined ? performance.now() : undefined;
    const walkOf = (place: MemberPlace) =>
      companyWalk(view, place.company, place.filters, {
        timeZone,
        cls: reads++ < PAGE_CLASS_READS ? 'page' : 'walk',
        signal: c.req.raw.signal,
        notBefore,
      });
    const listParts = { read, walkOf, order, limit, maxPages: settings.DATE_TO_MAX_SKIP_PAGES };
    let page: ListPage;
    try {
      page = await nextListPage(places, listParts);
      // A remembered position that proved wrong was forgotten: the first page starts again without it.
      for (let replan = 1; cursor === undefined && !page.ok && page.stale && replan <= REPLANS; replan++)
        page = await nextListPage(await startPlaces(view, limit, replan), listParts);
    } finally {
      place?.leave();
      found?.leave();
    }
    c.set('upstreamAttempts', page.attempts);
    if (page.ok === 'too_wide')
      return problemResponse(
        c,
        'range_too_wide',
        422,
        `more than ${settings.DATE_TO_MAX_SKIP_PAGES} pages of payments lie before this period; set a date_from closer to it`,
      );
    if (!page.ok) return problemFrom(c, page.failure);
    const more = page.places.some((place) => place.position !== null);
    const nextCursor = more ? await cursors.seal(page.places, binding, c.get('session').sid) : null;
    const data = page.rows.map((row) => row.record);
    const companies = view.group ? { company_ids: page.rows.map((row) => row.company) } : {};
    return c.json({ data, next_cursor: nextCursor, has_more: more, ...companies }, 200);
  });
}
