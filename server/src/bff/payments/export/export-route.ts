import { COMPANY_HEADER, exportQuerySchema } from '@payments/shared';
import { periodIn } from '@payments/shared/date-time';
import type { Context } from 'hono';
import { Hono } from 'hono';
import type { Settings } from '../../../config/settings.ts';
import { type Logger, logEvent } from '../../../runtime/logger.ts';
import type { BffEnv } from '../../bff-env.ts';
import { validQuery } from '../../middleware/query-validator.ts';
import { problemFrom, problemResponse } from '../../problem-response.ts';
import type { SortedRow } from '../sort/sort-order.ts';
import type { SortedViews } from '../sort/sorted-views.ts';
import type { Checkpoints } from '../walk/checkpoints.ts';
import type { CompanyReader } from '../walk/company-reader.ts';
import type { CompanyScope } from '../walk/company-scope.ts';
import { type RowsEnd, type ViewRow, viewRows } from '../walk/ordered-walk.ts';
import { viewOf } from '../walk/view.ts';
import { busyWalks, type WalkPlaces } from '../walk/walk-places.ts';
import type { FileRows } from './csv-body.ts';
import { columnsFor, exportFileName } from './export-columns.ts';
import { EXPORT_TIMES, type ExportGate } from './export-gate.ts';
import { createExportStream, type ExportBody } from './export-stream.ts';
import { fileFigures } from './figures-sheet.ts';
import { createSendQueueReader, type SendQueueReader } from './socket-send-queue.ts';

/** A sorted view's rows as a walk's batches. */
async function* sortedBatches(
  rows: readonly SortedRow[],
  attempts: number,
): AsyncGenerator<ViewRow[], RowsEnd> {
  for (let at = 0; at < rows.length; at += 100) yield rows.slice(at, at + 100);
  return { ok: true, attempts };
}

/** A kind of file the view can be downloaded as. */
export interface ExportFormat {
  extension: 'csv' | 'xlsx';
  contentType: string;
  body(file: FileRows): ExportBody;
}

/** `YYYY-MM-DD` of "now" in the user's zone, for the export's file name. */
function localDate(timeZone: string, now: number): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(now);
}

/**
 * Resets the client's connection (TCP RST, so that neither a proxy nor the kernel delivers what it still holds as
 * if the file had ended), where the server exposes it; says whether it could.
 */
function resetConnection(c: Context<BffEnv>): boolean {
  const outgoing = c.env?.outgoing;
  if (!outgoing) return false;
  const socket = outgoing.socket;
  try {
    if (socket && 'resetAndDestroy' in socket) socket.resetAndDestroy();
    else outgoing.destroy();
  } catch {
    // not a TCP socket: closing it is the reset there is
    outgoing.destroy();
  }
  return true;
}

/**
 * What the download has handed its connection and the client has not taken yet, at most: the kernel's send queue
 * in a reading begun after this asked, plus what was in Node's buffer then and what was written since. Undefined
 * if it cannot be known.
 */
async function unsentBytes(c: Context<BffEnv>, queues: SendQueueReader): Promise<number | undefined> {
  const socket = c.env?.outgoing?.socket;
  if (!socket || socket.destroyed) return undefined;
  const [written, buffered] = [socket.bytesWritten, socket.writableLength];
  const kernel = await queues.queued(socket);
  return kernel === undefined ? undefined : kernel + buffered + (socket.bytesWritten - written);
}

/**
 * Calls `leave` once the download has left the process: when the response closes, where the server exposes it.
 * A client that stops reading the last bytes is reset after `idleMs`, so its places are not held forever.
 */
function whenDownloadEnds(c: Context<BffEnv>, leave: () => void, idleMs: number): () => void {
  const outgoing = c.env?.outgoing;
  let left = false;
  let stuck: NodeJS.Timeout | undefined;
  const once = () => {
    if (left) return;
    left = true;
    clearTimeout(stuck);
    leave();
  };
  if (!outgoing || outgoing.destroyed) return once;
  outgoing.once('close', once);
  return () => {
    if (left) return;
    stuck = setTimeout(() => resetConnection(c), idleMs).unref();
  };
}

/** `GET /api/payments/export.<format>`: the whole view as a file, streamed while the upstream is walked. */
export function exportRoute(
  parts: {
    settings: Pick<
      Settings,
      | 'PAYMENTS_TIME_ZONE'
      | 'PAYMENTS_AMOUNT_UNIT'
      | 'PAYMENTS_LIST_ORDER'
      | 'PAYMENTS_SETTLED_STATUSES'
      | 'SORT_MAX_ROWS'
      | 'EXPORT_MAX_PER_USER'
      | 'EXPORT_MAX_TOTAL'
      | 'EXPORT_MIN_BYTES_PER_S'
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
    /** A view in another order than the upstream's, walked and sorted once (shared with the list). */
    sorted: SortedViews;
  },
  format: ExportFormat,
) {
  const { settings, exports, logger } = parts;
  const sendQueues = createSendQueueReader();
  return new Hono<BffEnv>().get('/', validQuery(exportQuerySchema), async (c) => {
    const { columns, tz, sort, ...query } = c.req.valid('query');
    const displayZone = tz ?? settings.PAYMENTS_TIME_ZONE;
    const chosen = viewOf(c.get('user'), c.req.header(COMPANY_HEADER), parts.scope, query, {
      amountUnit: settings.PAYMENTS_AMOUNT_UNIT,
    });
    if (!chosen.ok) return problemFrom(c, chosen);
    const { view } = chosen;
    // the range as the zone it counts in sees it: the company's days, or those of the zone the file's times are in
    const period = periodIn(
      view.filters.date_from ?? null,
      view.date_to ?? null,
      settings.PAYMENTS_TIME_ZONE,
      displayZone,
    );
    const fileName = exportFileName({
      company: view.company,
      group: view.group,
      status: view.statuses?.join('+'),
      dateFrom: period.dateFrom ?? undefined,
      dateTo: period.dateTo ?? undefined,
      zone: period.zone,
      today: localDate(displayZone, parts.now()),
      extension: format.extension,
    });
    const headers = {
      'content-type': format.contentType,
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
          : 'too many downloads are running right now; try again in a few seconds',
        // Readers too slow to keep their places lose them within a few pace windows (EXPORT_TIMES).
        { retryAfterSeconds: admission.scope === 'user' ? 10 : 5 },
      );
    const place = await parts.walks.enter(user);
    if (!place) {
      admission.leave();
      return problemResponse(c, 'rate_limited', 429, busyWalks(settings.WALKS_PER_USER), {
        retryAfterSeconds: 5,
      });
    }
    const leave = () => {
      admission.leave();
      place.leave();
    };
    const walk = new AbortController();
    const tally = { attempts: 0 };
    let asOf = new Date(parts.now()).toISOString();
    const signal = AbortSignal.any([walk.signal, c.req.raw.signal]);
    const upstreamSort =
      settings.PAYMENTS_LIST_ORDER === 'created_at_desc' ? 'created_at:desc' : 'created_at:asc';
    let rows: AsyncGenerator<ViewRow[], RowsEnd>;
    if (sort !== undefined && sort !== upstreamSort) {
      // A sorted file is the sorted view's rows, the same the list shows (walked once, kept a while).
      const outcome = await parts.sorted.sorted(view, sort, { signal, progress: () => {} });
      if (outcome === 'left' || outcome.ok !== true) {
        leave();
        if (outcome === 'left') return c.body(null, 204);
        if (outcome.ok === 'too_large')
          return problemResponse(
            c,
            'sort_too_large',
            422,
            `this view holds more than ${settings.SORT_MAX_ROWS} payments, too many to sort; narrow it, or download it newest first`,
          );
        return problemFrom(c, outcome.failure);
      }
      rows = sortedBatches(outcome.rows, outcome.attempts);
      // A kept sorted view was read when its walk began, not now: the figures sheet says so.
      asOf = new Date(outcome.asOf).toISOString();
    } else
      rows = viewRows(view, {
        tally,
        read: parts.read,
        checkpoints: parts.checkpoints,
        order: settings.PAYMENTS_LIST_ORDER,
        timeZone: settings.PAYMENTS_TIME_ZONE,
        signal,
      });
    // The first rows are read before answering, so an upstream that is down gives a proper error status.
    const first = await rows.next();
    c.set('upstreamAttempts', tally.attempts);
    if (first.done && !first.value.ok) {
      walk.abort();
      leave();
      return problemFrom(c, first.value.failure);
    }
    const firstRows = first.done ? [] : first.value;
    // A walk that ended with its first answer (an empty view) ends the file after its header.
    const end = first.done ? first.value : undefined;
    const walked: AsyncIterator<ViewRow[], RowsEnd> =
      end === undefined ? rows : { next: async () => ({ done: true, value: end }) };
    const figures =
      format.extension === 'xlsx'
        ? fileFigures({
            timeZone: settings.PAYMENTS_TIME_ZONE,
            amountUnit: settings.PAYMENTS_AMOUNT_UNIT,
            settledStatuses: settings.PAYMENTS_SETTLED_STATUSES,
            members: view.members,
            group: view.group,
            companyNames: parts.companyNames,
            period,
            asOf,
          })
        : undefined;
    const rest = figures ? figures.counting(firstRows, walked) : walked;
    const requestId = c.get('requestId');
    // The places stay held until the download has left the process, however the walk ended.
    const downloadEnded = whenDownloadEnds(c, leave, EXPORT_TIMES.idleMs);
    const body = format.body({
      columns: columnsFor(
        firstRows.map((row) => row.record),
        columns?.split(','),
        view.group,
      ),
      first: firstRows,
      rows: rest,
      ...(figures ? { figures: () => figures.rows() } : {}),
      group: view.group,
      timeZone: settings.PAYMENTS_TIME_ZONE,
      displayZone,
      amountUnit: settings.PAYMENTS_AMOUNT_UNIT,
      // Only the view's own companies: a record naming another gets no name from the tree.
      companyNames: new Map(
        view.members.flatMap((id) => {
          const name = parts.companyNames.get(id);
          return name === undefined ? [] : [[id, name] as const];
        }),
      ),
    });
    const stream = createExportStream({
      body,
      ...EXPORT_TIMES,
      minBytesPerSecond: settings.EXPORT_MIN_BYTES_PER_S,
      resetConnection: () => resetConnection(c),
      unsent: () => unsentBytes(c, sendQueues),
      onEnd: ({ end, rows: written, attempts, failure }) => {
        walk.abort();
        downloadEnded();
        // Cut by a stopping process, not by the client or the upstream: worth saying which.
        const how = end !== 'complete' && exports.stopping ? 'shutdown' : end;
        logEvent(logger, how === 'complete' || how === 'cancelled' ? 'info' : 'error', {
          msg: 'export_end',
          id: requestId,
          user,
          company: view.company,
          format: format.extension,
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
