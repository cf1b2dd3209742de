import { exportQuerySchema } from '@payments/shared';
import { Hono } from 'hono';
import type { Settings } from '../../../config/settings.ts';
import { type Logger, logEvent } from '../../../runtime/logger.ts';
import type { BffEnv } from '../../bff-env.ts';
import { validQuery } from '../../middleware/query-validator.ts';
import { problemResponse } from '../../problem-response.ts';
import type { CompanyScope } from '../walk/company-scope.ts';
import { keepUpTo } from '../walk/date-range.ts';
import type { ListSources } from '../walk/list-source.ts';
import { upstreamProblem, viewOf } from '../walk/view.ts';
import { exportFileName } from './export-columns.ts';
import { EXPORT_TIMES, type ExportGate } from './export-gate.ts';
import { createCsvExportStream } from './export-stream.ts';

/** Rows per upstream page of a download: the spec's maximum, so it costs as few requests as it can. */
const EXPORT_PAGE_SIZE = 100;

/** `YYYY-MM-DD` of "now" in the configured zone, for the export's file name. */
function localDate(timeZone: string, now: number): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(now);
}

/** `GET /api/payments/export.csv`: the whole view as CSV, streamed while the upstream is walked. */
export function exportRoute(parts: {
  settings: Pick<
    Settings,
    'PAYMENTS_TIME_ZONE' | 'PAYMENTS_AMOUNT_UNIT' | 'EXPORT_MAX_PER_USER' | 'EXPORT_MAX_TOTAL'
  >;
  scope: CompanyScope;
  sources: ListSources;
  exports: ExportGate;
  logger: Logger;
  now: () => number;
}) {
  const { settings, exports, logger } = parts;
  return new Hono<BffEnv>().get('/', validQuery(exportQuerySchema), async (c) => {
    const { columns, ...query } = c.req.valid('query');
    const chosen = viewOf(c, parts.scope, query);
    if (!chosen.ok) return chosen.response;
    const { view } = chosen;
    const fileName = exportFileName({
      company: view.company,
      group: view.group,
      status: view.filters.status,
      dateFrom: view.filters.date_from,
      dateTo: view.date_to,
      today: localDate(settings.PAYMENTS_TIME_ZONE, parts.now()),
    });
    const headers = {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="${fileName}"`,
    };
    // Hono answers HEAD with the GET handler: a HEAD gets the download's headers without a walk of the upstream.
    if (c.req.method === 'HEAD') return c.body(null, 200, headers);
    const user = view.user.username;
    const admission = await exports.enter(user);
    if (!admission.ok)
      return problemResponse(
        c,
        'rate_limited',
        429,
        admission.scope === 'user'
          ? `you have ${settings.EXPORT_MAX_PER_USER} downloads running already; wait for one to finish`
          : 'too many downloads are running right now; try again in a minute',
        { retryAfterSeconds: admission.scope === 'user' ? 10 : 30 },
      );
    const walk = new AbortController();
    const source = parts.sources({
      view,
      limit: EXPORT_PAGE_SIZE,
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
      timeZone: settings.PAYMENTS_TIME_ZONE,
      amountUnit: settings.PAYMENTS_AMOUNT_UNIT,
      keep: keepUpTo(view.date_to, settings.PAYMENTS_TIME_ZONE),
      companyOf: view.group ? source.companyOf : undefined,
      ...EXPORT_TIMES,
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
        const how = end !== 'complete' && exports.stopping ? 'shutdown' : end;
        logEvent(logger, how === 'complete' || how === 'cancelled' ? 'info' : 'error', {
          msg: 'export_end',
          id: requestId,
          user,
          company: view.company,
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
