import {
  COMPANY_HEADER,
  exportQuerySchema,
  listFiltersSchema,
  listQuerySchema,
  type Payment,
  type Summary,
} from '@payments/shared';
import { type Context, Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { UpstreamFailure } from '../../upstream/index.ts';
import type { BffDeps, BffEnv } from '../bff-context.ts';
import { logEvent } from '../logger.ts';
import { validQuery } from '../middleware/query-validator.ts';
import { createCsvExportStream, exportFileName } from '../payments/csv-export.ts';
import { keepUpTo, nextPageUpTo } from '../payments/date-range.ts';
import { type ListSource, listSource } from '../payments/list-source.ts';
import { createSummaryCounter } from '../payments/summary.ts';
import { problemResponse } from '../problem-response.ts';

const EXPORT_PAGE_SIZE = 100;

function upstreamProblem(c: Context<BffEnv>, failure: UpstreamFailure) {
  return problemResponse(c, failure.code, failure.status, failure.detail, {
    retryAfterSeconds: failure.retryAfterSeconds,
  });
}

/** `YYYY-MM-DD` of "now" in the configured zone, for the export's file name. */
function localDate(timeZone: string, now: number): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(now);
}

/** The page after `cursor` of `source`, with the rows `keep` keeps; pages without any are followed past. */
function nextPage(
  deps: BffDeps,
  source: ListSource,
  cursor: string | undefined,
  keep: ((r: Payment) => boolean) | undefined,
) {
  return keep ? nextPageUpTo(source.fetchPage, cursor, keep, deps.maxSkipPages) : source.fetchPage(cursor);
}

/** `/api/payments`, its summary and its CSV export: scope first, then cursor, then (and only then) upstream. */
export function paymentsRoutes(deps: BffDeps) {
  return new Hono<BffEnv>()
    .get('/', validQuery(listQuerySchema), async (c) => {
      const { limit, cursor, group, date_to, ...filters } = c.req.valid('query');
      const user = c.get('user');
      const choice = deps.scope.choose(user, c.req.header(COMPANY_HEADER));
      if (!choice.ok) return problemResponse(c, choice.code, choice.status, choice.detail);
      const binding = { user: user.username, company: choice.companyId, group, date_to, ...filters };
      let upstreamCursor: string | undefined;
      if (cursor !== undefined) {
        const opened = deps.cursors.open(cursor, binding);
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
      const isGroup = group === 'true';
      const source = listSource(deps, {
        user,
        company: choice.companyId,
        group: isGroup,
        limit,
        filters,
        signal: c.req.raw.signal,
        purpose: 'list',
      });
      // A merged page may show no row yet while its companies move on: followed past like a date_to's pages.
      const keep = keepUpTo(date_to, deps.timeZone) ?? (isGroup ? () => true : undefined);
      const result = await nextPage(deps, source, upstreamCursor, keep);
      c.set('upstreamAttempts', result.attempts);
      if (result.ok === 'too_wide')
        return problemResponse(
          c,
          'range_too_wide',
          422,
          `more than ${deps.maxSkipPages} pages of payments are newer than date_to; set a date_from closer to it`,
        );
      if (!result.ok) return upstreamProblem(c, result.failure);
      const page = result.value;
      const nextCursor = page.next_cursor === null ? null : deps.cursors.seal(page.next_cursor, binding);
      if (page.next_cursor !== null && nextCursor === null)
        return problemResponse(
          c,
          'upstream_bad_response',
          502,
          'the payments service sent an oversized cursor',
        );
      const companies = isGroup ? { company_ids: page.data.map((r) => source.companyOf(r) ?? '') } : {};
      return c.json({ data: page.data, next_cursor: nextCursor, has_more: page.has_more, ...companies }, 200);
    })
    .get('/summary', validQuery(listFiltersSchema), async (c) => {
      const { group, date_to, ...filters } = c.req.valid('query');
      const user = c.get('user');
      const choice = deps.scope.choose(user, c.req.header(COMPANY_HEADER));
      if (!choice.ok) return problemResponse(c, choice.code, choice.status, choice.detail);
      const isGroup = group === 'true';
      // A group's figures depend on which of its companies the user may see.
      const members = isGroup ? deps.scope.group(user, choice.companyId) : [choice.companyId];
      const key = JSON.stringify([members, filters.status, filters.date_from, date_to]);
      const streaming = (c.req.header('accept') ?? '').includes('text/event-stream');
      const hit = await deps.summaries.cached(key);
      if (hit !== undefined && !streaming) return c.json(hit, 200);
      const run = await deps.summaries.start(user.username);
      const signal = AbortSignal.any([run.signal, c.req.raw.signal]);
      // Sums need no order: a group's companies are walked one after another, not merged.
      const sources = members.map((company) =>
        listSource(deps, {
          user,
          company,
          group: false,
          limit: EXPORT_PAGE_SIZE,
          filters,
          signal,
          purpose: 'export',
        }),
      );
      const keep = keepUpTo(date_to, deps.timeZone);
      const counter = createSummaryCounter(deps);
      /** Walks the lists to their ends (or the row cap), reporting progress after every page. */
      const walk = async (progress: (counted: number) => Promise<void>) => {
        const finish = (complete: boolean) => {
          const summary = counter.result(complete);
          deps.summaries.remember(key, summary);
          return summary;
        };
        for (const source of sources) {
          let cursor: string | undefined;
          do {
            const result = await source.fetchPage(cursor);
            c.set('upstreamAttempts', c.get('upstreamAttempts') + result.attempts);
            if (!result.ok) return result.failure;
            for (const record of result.value.data) if (!keep || keep(record)) counter.add(record);
            if (counter.count >= deps.summaryMaxRows) return finish(false);
            cursor = result.value.next_cursor ?? undefined;
            await progress(counter.count);
          } while (cursor !== undefined);
        }
        return finish(true);
      };
      if (!streaming) {
        const outcome = await walk(async () => {}).finally(run.finish);
        return 'count' in outcome ? c.json(outcome, 200) : upstreamProblem(c, outcome);
      }
      return streamSSE(c, async (stream) => {
        try {
          const outcome: Summary | UpstreamFailure =
            hit ??
            (await walk((counted) =>
              stream.writeSSE({ event: 'progress', data: JSON.stringify({ counted }) }),
            ));
          if ('count' in outcome) await stream.writeSSE({ event: 'summary', data: JSON.stringify(outcome) });
          else if (!outcome.aborted)
            await stream.writeSSE({
              event: 'error',
              data: JSON.stringify({ code: outcome.code, status: outcome.status, detail: outcome.detail }),
            });
        } finally {
          run.finish();
        }
      });
    })
    .get('/export.csv', validQuery(exportQuerySchema), async (c) => {
      const { group, date_to, columns, ...filters } = c.req.valid('query');
      const user = c.get('user');
      const choice = deps.scope.choose(user, c.req.header(COMPANY_HEADER));
      if (!choice.ok) return problemResponse(c, choice.code, choice.status, choice.detail);
      const companyId = choice.companyId;
      const isGroup = group === 'true';
      const fileName = exportFileName({
        company: companyId,
        group: isGroup,
        status: filters.status,
        dateFrom: filters.date_from,
        dateTo: date_to,
        today: localDate(deps.timeZone, deps.now()),
      });
      const headers = {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': `attachment; filename="${fileName}"`,
      };
      // Hono answers HEAD with the GET handler: a HEAD gets the download's headers without a walk of the upstream.
      if (c.req.method === 'HEAD') return c.body(null, 200, headers);
      const admission = await deps.exports.enter(user.username);
      if (!admission.ok)
        return problemResponse(
          c,
          'rate_limited',
          429,
          admission.scope === 'user'
            ? `you have ${deps.exportLimits.perUser} downloads running already; wait for one to finish`
            : 'too many downloads are running right now; try again in a minute',
          { retryAfterSeconds: admission.scope === 'user' ? 10 : 30 },
        );
      const walk = new AbortController();
      const source = listSource(deps, {
        user,
        company: companyId,
        group: isGroup,
        limit: EXPORT_PAGE_SIZE,
        filters,
        signal: AbortSignal.any([walk.signal, c.req.raw.signal]),
        purpose: 'export',
      });
      // The first page is fetched before answering, so an upstream that is down gives a proper error status.
      const first = await source.fetchPage(undefined);
      c.set('upstreamAttempts', first.attempts);
      if (!first.ok) {
        admission.leave();
        return upstreamProblem(c, first.failure);
      }
      const requestId = c.get('requestId');
      const stream = createCsvExportStream({
        firstPage: first.value,
        chosenColumns: columns?.split(','),
        timeZone: deps.timeZone,
        amountUnit: deps.amountUnit,
        keep: keepUpTo(date_to, deps.timeZone),
        companyOf: isGroup ? source.companyOf : undefined,
        idleMs: deps.exportLimits.idleMs,
        maxDurationMs: deps.exportLimits.maxDurationMs,
        fetchPage: (cursor) => source.fetchPage(cursor),
        resetConnection: () => {
          const outgoing = c.env?.outgoing;
          if (!outgoing) return false;
          outgoing.destroy();
          return true;
        },
        onEnd: ({ end, rows, attempts, failure }) => {
          walk.abort();
          admission.leave();
          // Cut by a stopping process, not by the client or the upstream: worth saying which.
          const how = end !== 'complete' && deps.exports.stopping ? 'shutdown' : end;
          logEvent(deps.logger, how === 'complete' || how === 'cancelled' ? 'info' : 'error', {
            msg: 'export_end',
            id: requestId,
            user: user.username,
            company: companyId,
            end: how,
            rows,
            upstream_attempts: first.attempts + attempts,
            ...(failure ? { failure: failure.code } : {}),
          });
        },
      });
      return c.body(stream, 200, headers);
    });
}
