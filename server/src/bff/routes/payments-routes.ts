import { COMPANY_HEADER, type PaymentPage } from '@payments/shared';
import { type Context, Hono, type MiddlewareHandler, type TypedResponse } from 'hono';
import type { InferInput } from 'hono/validator';
import type { UpstreamFailure } from '../upstream/index.ts';
import type { BffDeps, BffEnv } from './bff-env.ts';
import { createCsvExportStream } from './csv-export.ts';
import { type Parsed, parseExportParams, parseListParams, type RawQuery } from './list-params.ts';
import { pageBody } from './page-body.ts';
import { problemResponse } from './problem-response.ts';
import { queryOf } from './query-string.ts';
import { logEvent } from './request-log.ts';
import { completeResponse } from './security-headers.ts';

const EXPORT_PAGE_SIZE = 100;

function upstreamProblem(c: Context<BffEnv>, failure: UpstreamFailure) {
  return problemResponse(c, failure.code, failure.status, failure.detail, {
    retryAfterSeconds: failure.retryAfterSeconds,
  });
}

const dateFormats = new Map<string, Intl.DateTimeFormat>();

/** `YYYY-MM-DD` of "now" in the configured zone, for the export's file name (formatter built once per zone). */
function localDate(timeZone: string, now: number): string {
  let format = dateFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    dateFormats.set(timeZone, format);
  }
  return format.format(now);
}

type InvalidQuery = ReturnType<typeof problemResponse<400>>;

/**
 * The query as `parse` reads it, or a 400 `invalid_parameter` saying why, before the handler runs. Typed as Hono's
 * `validator('query', …)` types one, so that hono/client sees the route's query and its 400; it reads the query
 * with `queryOf` instead of `c.req.queries()`, which parses the URL into arrays only to be turned back.
 */
function validQuery<T extends object>(
  parse: (raw: RawQuery) => Parsed<T>,
): MiddlewareHandler<
  BffEnv,
  string,
  { in: { query: InferInput<T, 'query'> }; out: { query: T } },
  InvalidQuery
> {
  return async (c, next) => {
    const parsed = parse(queryOf(c.req.url));
    if (!parsed.ok) return problemResponse(c, 'invalid_parameter', 400, parsed.detail);
    c.req.addValidatedData('query', parsed.value);
    await next();
  };
}

/** `/api/payments` and its CSV export: scope first, then cursor, then (and only then) upstream. */
export function paymentsRoutes(deps: BffDeps) {
  return new Hono<BffEnv>()
    .get('/', validQuery(parseListParams), async (c) => {
      const query = c.req.valid('query');
      const user = c.get('user');
      const choice = deps.scope.choose(user, c.req.header(COMPANY_HEADER));
      if (!choice.ok) return problemResponse(c, choice.code, choice.status, choice.detail);
      const binding = {
        user: user.username,
        company: choice.companyId,
        status: query.status,
        dateFrom: query.date_from,
      };
      let upstreamCursor: string | undefined;
      if (query.cursor !== undefined) {
        const opened = deps.cursorTokens.open(query.cursor, binding);
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
      const result = await deps.upstream.listPaymentsJson(
        { limit: query.limit, cursor: upstreamCursor, status: query.status, date_from: query.date_from },
        { companyId: choice.companyId, signal: c.req.raw.signal },
      );
      c.set('upstreamAttempts', result.attempts);
      if (!result.ok) return upstreamProblem(c, result.failure);
      const page = result.value;
      let nextCursor: string | null = null;
      if (page.next_cursor !== null) {
        nextCursor = deps.cursorTokens.wrap(page.next_cursor, binding);
        if (nextCursor === null)
          return problemResponse(
            c,
            'upstream_bad_response',
            502,
            'the payments service sent an oversized cursor',
          );
      }
      // The JSON of a PaymentPage, typed as c.json would type it so that hono/client sees the page.
      return completeResponse(c, pageBody(page, nextCursor), 200, 'application/json') as Response &
        TypedResponse<PaymentPage, 200, 'json'>;
    })
    .get('/export.csv', validQuery(parseExportParams), async (c) => {
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
      const list = (cursor: string | undefined, signal: AbortSignal) =>
        deps.upstream.listPayments({ limit: EXPORT_PAGE_SIZE, cursor, ...filters }, { companyId, signal });
      // The first page is fetched before answering, so an upstream that is down gives a proper error status.
      const first = await list(undefined, c.req.raw.signal);
      c.set('upstreamAttempts', first.attempts);
      if (!first.ok) return upstreamProblem(c, first.failure);
      const requestId = c.get('requestId');
      const stream = createCsvExportStream({
        firstPage: first.value,
        fetchPage: (cursor, signal) => list(cursor, AbortSignal.any([signal, c.req.raw.signal])),
        resetConnection: () => {
          const outgoing = c.env?.outgoing;
          if (!outgoing) return false;
          outgoing.destroy();
          return true;
        },
        onEnd: ({ rows, attempts, failure }) =>
          logEvent(deps.logger, failure && !failure.aborted ? 'error' : 'info', {
            msg: 'export_end',
            id: requestId,
            company: companyId,
            rows,
            upstream_attempts: first.attempts + attempts,
            ...(failure ? { failure: failure.code } : {}),
          }),
      });
      return c.body(stream, 200, headers);
    });
}
