import { COMPANY_HEADER, listFiltersSchema, listQuerySchema, type Summary } from '@payments/shared';
import { type Context, Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { UpstreamFailure } from '../../upstream/index.ts';
import type { BffDeps, BffEnv } from '../bff-context.ts';
import { logEvent } from '../logger.ts';
import { validQuery } from '../middleware/query-validator.ts';
import { createCsvExportStream } from '../payments/csv-export.ts';
import { keepUpTo, nextPageUpTo } from '../payments/date-range.ts';
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

/** `/api/payments` and its CSV export: scope first, then cursor, then (and only then) upstream. */
export function paymentsRoutes(deps: BffDeps) {
  return new Hono<BffEnv>()
    .get('/', validQuery(listQuerySchema), async (c) => {
      const query = c.req.valid('query');
      const user = c.get('user');
      const choice = deps.scope.choose(user, c.req.header(COMPANY_HEADER));
      if (!choice.ok) return problemResponse(c, choice.code, choice.status, choice.detail);
      const binding = {
        user: user.username,
        company: choice.companyId,
        status: query.status,
        date_from: query.date_from,
        date_to: query.date_to,
      };
      let upstreamCursor: string | undefined;
      if (query.cursor !== undefined) {
        const opened = deps.cursors.open(query.cursor, binding);
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
      const fetchPage = (cursor: string | undefined) =>
        deps.upstream.listPayments(
          { limit: query.limit, cursor, status: query.status, date_from: query.date_from },
          { companyId: choice.companyId, signal: c.req.raw.signal },
        );
      const keep = keepUpTo(query.date_to, deps.timeZone);
      const result = keep
        ? await nextPageUpTo(fetchPage, upstreamCursor, keep, deps.maxSkipPages)
        : await fetchPage(upstreamCursor);
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
      return c.json({ data: page.data, next_cursor: nextCursor, has_more: page.has_more }, 200);
    })
    .get('/summary', validQuery(listFiltersSchema), async (c) => {
      const filters = c.req.valid('query');
      const user = c.get('user');
      const choice = deps.scope.choose(user, c.req.header(COMPANY_HEADER));
      if (!choice.ok) return problemResponse(c, choice.code, choice.status, choice.detail);
      const key = JSON.stringify([choice.companyId, filters.status, filters.date_from, filters.date_to]);
      const streaming = (c.req.header('accept') ?? '').includes('text/event-stream');
      const hit = deps.summaries.cached(key);
      if (hit !== undefined && !streaming) return c.json(hit, 200);
      const run = deps.summaries.start(user.username);
      const signal = AbortSignal.any([run.signal, c.req.raw.signal]);
      const { date_to, ...upstreamFilters } = filters;
      const keep = keepUpTo(date_to, deps.timeZone);
      const counter = createSummaryCounter(deps);
      /** Walks the list to its end (or the row cap), reporting progress after every page. */
      const walk = async (progress: (counted: number) => Promise<void>) => {
        let cursor: string | undefined;
        for (;;) {
          const result = await deps.upstream.listPayments(
            { limit: EXPORT_PAGE_SIZE, cursor, ...upstreamFilters },
            { companyId: choice.companyId, signal, purpose: 'export' },
          );
          c.set('upstreamAttempts', c.get('upstreamAttempts') + result.attempts);
          if (!result.ok) return result.failure;
          for (const record of result.value.data) if (!keep || keep(record)) counter.add(record);
          cursor = result.value.next_cursor ?? undefined;
          if (cursor === undefined || counter.count >= deps.summaryMaxRows) {
            const summary = counter.result(cursor === undefined);
            deps.summaries.remember(key, summary);
            return summary;
          }
          await progress(counter.count);
        }
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
    .get('/export.csv', validQuery(listFiltersSchema), async (c) => {
      const filters = c.req.valid('query');
      const choice = deps.scope.choose(c.get('user'), c.req.header(COMPANY_HEADER));
      if (!choice.ok) return problemResponse(c, choice.code, choice.status, choice.detail);
      const companyId = choice.companyId;
      const fileCompany = companyId.replace(/[^A-Za-z0-9_.-]/g, '_');
      const headers = {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': `attachment; filename="payments-${fileCompany}-${localDate(deps.timeZone, deps.now())}.csv"`,
      };
      // Hono answers HEAD with the GET handler: a HEAD gets the download's headers without a walk of the upstream.
      if (c.req.method === 'HEAD') return c.body(null, 200, headers);
      const admission = deps.exports.enter(c.get('user').username);
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
      const { date_to, ...upstreamFilters } = filters;
      const list = (cursor: string | undefined, signal: AbortSignal) =>
        deps.upstream.listPayments(
          { limit: EXPORT_PAGE_SIZE, cursor, ...upstreamFilters },
          { companyId, signal, purpose: 'export' },
        );
      // The first page is fetched before answering, so an upstream that is down gives a proper error status.
      const first = await list(undefined, c.req.raw.signal);
      c.set('upstreamAttempts', first.attempts);
      if (!first.ok) {
        admission.leave();
        return upstreamProblem(c, first.failure);
      }
      const requestId = c.get('requestId');
      const stream = createCsvExportStream({
        firstPage: first.value,
        timeZone: deps.timeZone,
        amountUnit: deps.amountUnit,
        keep: keepUpTo(date_to, deps.timeZone),
        idleMs: deps.exportLimits.idleMs,
        maxDurationMs: deps.exportLimits.maxDurationMs,
        fetchPage: (cursor, signal) => list(cursor, AbortSignal.any([signal, c.req.raw.signal])),
        resetConnection: () => {
          const outgoing = c.env?.outgoing;
          if (!outgoing) return false;
          outgoing.destroy();
          return true;
        },
        onEnd: ({ end, rows, attempts, failure }) => {
          admission.leave();
          // Cut by a stopping process, not by the client or the upstream: worth saying which.
          const how = end !== 'complete' && deps.exports.stopping ? 'shutdown' : end;
          logEvent(deps.logger, how === 'complete' || how === 'cancelled' ? 'info' : 'error', {
            msg: 'export_end',
            id: requestId,
            user: c.get('user').username,
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
