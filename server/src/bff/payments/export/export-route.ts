import { exportQuerySchema } from '@payments/shared';
import { Hono } from 'hono';
import type { Settings } from '../../../config/settings.ts';
import { type Logger, logEvent } from '../../../runtime/logger.ts';
import type { BffEnv } from '../../bff-env.ts';
import { validQuery } from '../../middleware/query-validator.ts';
import { problemResponse } from '../../problem-response.ts';
import { busyWalks } from '../summary/summary-route.ts';
import type { Checkpoints } from '../walk/checkpoints.ts';
import type { CompanyReader } from '../walk/company-reader.ts';
import type { CompanyScope } from '../walk/company-scope.ts';
import { type RowsEnd, type ViewRow, viewRows } from '../walk/ordered-walk.ts';
import { upstreamProblem, viewOf } from '../walk/view.ts';
import type { WalkPlaces } from '../walk/walk-places.ts';
import { columnsFor, exportFileName } from './export-columns.ts';
import { EXPORT_TIMES, type ExportGate } from './export-gate.ts';
import { createCsvExportStream } from './export-stream.ts';

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
    | 'PAYMENTS_TIME_ZONE'
    | 'PAYMENTS_AMOUNT_UNIT'
    | 'PAYMENTS_LIST_ORDER'
    | 'EXPORT_MAX_PER_USER'
    | 'EXPORT_MAX_TOTAL'
    | 'WALKS_PER_USER'
  >;
  scope: CompanyScope;
  read: CompanyReader;
  checkpoints: Checkpoints;
  exports: ExportGate;
  walks: WalkPlaces;
  /** Company names by id, for a group's `company_name`. */
  companyNames: ReadonlyMap<string, string>;
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
      extension: 'csv',
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
    const place = await parts.walks.enter(user);
    if (!place) {
      admission.leave();
      return problemResponse(c, 'rate_limited', 429, busyWalks(settings.WALKS_PER_USER), {
        retryAfterSeconds: 5,
      });
    }
    const walk = new AbortController();
    const tally = { attempts: 0 };
    const rows = viewRows(view, {
      tally,
      read: parts.read,
      checkpoints: parts.checkpoints,
      order: settings.PAYMENTS_LIST_ORDER,
      timeZone: settings.PAYMENTS_TIME_ZONE,
      signal: AbortSignal.any([walk.signal, c.req.raw.signal]),
    });
    // The first rows are read before answering, so an upstream that is down gives a proper error status.
    const first = await rows.next();
    c.set('upstreamAttempts', tally.attempts);
    if (first.done) {
      if (!first.value.ok) {
        walk.abort();
        admission.leave();
        place.leave();
        return upstreamProblem(c, first.value.failure);
      }
    }
    const firstRows = first.done ? [] : first.value;
    // A walk that ended with its first answer (an empty view) ends the file after its header.
    const end = first.done ? first.value : undefined;
    const rest: AsyncIterator<ViewRow[], RowsEnd> =
      end === undefined ? rows : { next: async () => ({ done: true, value: end }) };
    const requestId = c.get('requestId');
    const stream = createCsvExportStream({
      columns: columnsFor(
        firstRows.map((row) => row.record),
        columns?.split(','),
        view.group,
      ),
      first: firstRows,
      rows: rest,
      group: view.group,
      timeZone: settings.PAYMENTS_TIME_ZONE,
      amountUnit: settings.PAYMENTS_AMOUNT_UNIT,
      // Only the view's own companies: a record naming another gets no name from the tree.
      companyNames: new Map(
        view.members.flatMap((id) => {
          const name = parts.companyNames.get(id);
          return name === undefined ? [] : [[id, name] as const];
        }),
      ),
      ...EXPORT_TIMES,
      resetConnection: () => {
        const outgoing = c.env?.outgoing;
        if (!outgoing) return false;
        outgoing.destroy();
        return true;
      },
      onEnd: ({ end, rows: written, attempts, failure }) => {
        walk.abort();
        admission.leave();
        place.leave();
        // Cut by a stopping process, not by the client or the upstream: worth saying which.
        const how = end !== 'complete' && exports.stopping ? 'shutdown' : end;
        logEvent(logger, how === 'complete' || how === 'cancelled' ? 'info' : 'error', {
          msg: 'export_end',
          id: requestId,
          user,
          company: view.company,
          end: how,
          rows: written,
          upstream_attempts: attempts,
          ...(failure ? { failure: failure.code } : {}),
        });
      },
    });
    return c.body(stream, 200, headers);
  });
}
