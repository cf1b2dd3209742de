import { listQuerySchema } from '@payments/shared';
import { Hono } from 'hono';
import type { Settings } from '../../../config/settings.ts';
import type { BffEnv } from '../../bff-env.ts';
import { validQuery } from '../../middleware/query-validator.ts';
import { problemResponse } from '../../problem-response.ts';
import type { CompanyScope } from '../walk/company-scope.ts';
import { keepUpTo, nextPageUpTo } from '../walk/date-range.ts';
import type { ListCursors } from '../walk/list-cursor.ts';
import type { ListSources } from '../walk/list-source.ts';
import { upstreamProblem, viewOf } from '../walk/view.ts';

/** `GET /api/payments`: one page of a view. Scope first, then the cursor, then (and only then) the upstream. */
export function listRoute(parts: {
  settings: Pick<Settings, 'PAYMENTS_TIME_ZONE' | 'DATE_TO_MAX_SKIP_PAGES'>;
  scope: CompanyScope;
  sources: ListSources;
  cursors: ListCursors;
}) {
  const { settings, cursors } = parts;
  return new Hono<BffEnv>().get('/', validQuery(listQuerySchema), async (c) => {
    const { limit, cursor, ...query } = c.req.valid('query');
    const chosen = viewOf(c, parts.scope, query);
    if (!chosen.ok) return chosen.response;
    const { view } = chosen;
    const binding = { user: view.user.username, company: view.company, ...query };
    let upstreamCursor: string | undefined;
    if (cursor !== undefined) {
      const opened = cursors.open(cursor, binding);
      if (!opened.ok)
        return opened.reason === 'mismatch'
          ? problemResponse(
              c,
              'cursor_mismatch',
              400,
              'this cursor belongs to other filters or another company; start again from the first page',
            )
          : problemResponse(c, 'invalid_parameter', 400, 'cursor is not one this server issued');
      upstreamCursor = opened.upstreamCursor;
    }
    const source = parts.sources({ view, limit, signal: c.req.raw.signal, purpose: 'list' });
    // A merged page may show no row yet while its companies move on: followed past like a date_to's pages.
    const keep = keepUpTo(view.date_to, settings.PAYMENTS_TIME_ZONE) ?? (view.group ? () => true : undefined);
    const result = keep
      ? await nextPageUpTo(source.fetchPage, upstreamCursor, keep, settings.DATE_TO_MAX_SKIP_PAGES)
      : await source.fetchPage(upstreamCursor);
    c.set('upstreamAttempts', result.attempts);
    if (result.ok === 'too_wide')
      return problemResponse(
        c,
        'range_too_wide',
        422,
        `more than ${settings.DATE_TO_MAX_SKIP_PAGES} pages of payments are newer than date_to; set a date_from closer to it`,
      );
    if (!result.ok) return upstreamProblem(c, result.failure);
    const page = result.value;
    const nextCursor = page.next_cursor === null ? null : cursors.seal(page.next_cursor, binding);
    if (page.next_cursor !== null && nextCursor === null)
      return problemResponse(
        c,
        'upstream_bad_response',
        502,
        'the payments service sent an oversized cursor',
      );
    const companies = view.group ? { company_ids: page.data.map((r) => source.companyOf(r) ?? '') } : {};
    return c.json({ data: page.data, next_cursor: nextCursor, has_more: page.has_more, ...companies }, 200);
  });
}
