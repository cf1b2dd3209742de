import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { brotliDecompress, gunzip, inflate } from 'node:zlib';
import { describeIssue, type ErrorCode, type PaymentPage, paymentPageSchema } from '@payments/shared';
import { Agent, type Dispatcher } from 'undici';
import { backoffDelay, parseRetryAfter, RETRYABLE_STATUSES } from './retry-policy.ts';

export interface UpstreamCredentials {
  secretId: string;
  secretPassword: string;
}

/** The credentials as the Basic scheme carries them (RFC 7617): base64 of `id:password`. */
export function basicCredentials({ secretId, secretPassword }: UpstreamCredentials): string {
  return Buffer.from(`${secretId}:${secretPassword}`).toString('base64');
}

/** How hard one call tries: retries after the first attempt, and a deadline for all of them together. */
export interface RetryBudget {
  retries: number;
  deadlineMs: number;
}

/** A page the browser waits for: a few quick retries, then a clear error it can retry itself. */
export const LIST_BUDGET: RetryBudget = { retries: 3, deadlineMs: 25_000 };
/** A page of a long export: a passing fault must not cost the user a download of many thousand rows. */
export const EXPORT_BUDGET: RetryBudget = { retries: 10, deadlineMs: 120_000 };

export interface UpstreamClientOptions {
  /** Base address with its version segment, e.g. `https://api.example.com/v1`. */
  baseUrl: string;
  credentials: UpstreamCredentials;
  /** The caller's own company: requests for it carry no `X-Company-Id` (the spec defines it for children). */
  ownCompanyId?: string;
  attemptTimeoutMs?: number;
  backoffBaseMs?: number;
  backoffCapMs?: number;
  random?: () => number;
  /** The budgets of list calls and of export pages (LIST_BUDGET and EXPORT_BUDGET unless set). */
  budgets?: { list?: RetryBudget; export?: RetryBudget };
  /** Sockets to the upstream at most: bounded, so a crowd of browsers cannot exhaust file descriptors. */
  connections?: number;
  /** Receives one event per failed attempt: statuses and structural faults, never body text. */
  log?: (event: UpstreamLogEvent) => void;
}

export interface UpstreamLogEvent {
  event: 'upstream_attempt_failed';
  attempt: number;
  outcome: string;
  status?: number;
  content_type?: string;
}

/** One list request as the upstream receives it; values are already validated by the caller. */
export interface ListRequest {
  limit: number;
  cursor?: string | undefined;
  status?: string | undefined;
  date_from?: string | undefined;
}

export interface UpstreamFailure {
  code: ErrorCode;
  /** The status the BFF answers with. */
  status: 400 | 403 | 502 | 503 | 504;
  detail: string;
  retryAfterSeconds?: number;
  /** The browser went away; nobody reads the answer. */
  aborted?: boolean;
}

export type UpstreamResult<T> =
  | { ok: true; value: T; attempts: number }
  | { ok: false; failure: UpstreamFailure; attempts: number };

export interface CallContext {
  companyId: string;
  signal?: AbortSignal | undefined;
  /** An export's page tries harder than a page the browser waits for. */
  purpose?: 'list' | 'export';
}

export interface UpstreamClient {
  /** One page, its envelope and records checked against the shared schema; records pass as they came. */
  listPayments(query: ListRequest, context: CallContext): Promise<UpstreamResult<PaymentPage>>;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 8 * 1024 * 1024;

type Attempt =
  | { kind: 'page'; page: PaymentPage }
  | { kind: 'status'; status: number; retryAfterMs: number | undefined; contentType: string }
  /** A 200 whose body is no page; `retryable` when it is cut short or not JSON (a transport fault). */
  | { kind: 'bad'; detail: string; retryable: boolean }
  | { kind: 'network'; detail: string }
  | { kind: 'timeout' }
  | { kind: 'aborted' };

/** The only door to the Payments API. Never throws: every outcome is a value with a code. */
export function createUpstreamClient(options: UpstreamClientOptions): UpstreamClient {
  const attemptTimeoutMs = options.attemptTimeoutMs ?? 10_000;
  const backoff = {
    baseMs: options.backoffBaseMs ?? 100,
    capMs: options.backoffCapMs ?? 2_000,
    random: options.random ?? Math.random,
  };
  const listUrl = new URL(
    'payments/',
    options.baseUrl.endsWith('/') ? options.baseUrl : `${options.baseUrl}/`,
  );
  const authorization = `Basic ${basicCredentials(options.credentials)}`;
  const agent = new Agent({
    connections: options.connections ?? 64,
    keepAliveTimeout: 10_000,
    connect: { timeout: attemptTimeoutMs },
  });

  async function attemptOnce(
    url: URL,
    headers: Record<string, string>,
    timeoutMs: number,
    caller?: AbortSignal,
  ) {
    // One timer for the whole attempt, headers and body: a body trickled out byte by byte cannot outlive it.
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), timeoutMs);
    const signal = caller ? AbortSignal.any([caller, timeout.signal]) : timeout.signal;
    try {
      const response = await agent.request({
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: 'GET',
        headers,
        signal,
      });
      if (response.statusCode !== 200) {
        // The body is not read into anything: an upstream may echo the credentials in it.
        await response.body.dump();
        return {
          kind: 'status',
          status: response.statusCode,
          retryAfterMs: parseRetryAfter(header(response, 'retry-after'), Date.now()),
          // The upstream's own text, so only a media type's characters are kept.
          contentType: (header(response, 'content-type') ?? '').replace(/[^\w.+\-/;= ]/g, '').slice(0, 60),
        } satisfies Attempt;
      }
      const text = await boundedText(response);
      if (text === null)
        return { kind: 'bad', detail: 'body is larger than 8 MiB', retryable: false } as const;
      let json: unknown;
      try {
        json = parseKeepingDigits(text);
      } catch {
        return {
          kind: 'bad',
          detail: `body is not JSON (${text.length} characters)`,
          retryable: true,
        } as const;
      }
      const parsed = paymentPageSchema.safeParse(json);
      if (!parsed.success)
        return {
          kind: 'bad',
          detail: describeIssue(parsed.error.issues[0], json),
          retryable: false,
        } as const;
      // The records as they came (the schema's output is a copy that would have to be trusted to be faithful);
      // of the envelope, only its own three members.
      const { data, next_cursor, has_more } = json as PaymentPage;
      return { kind: 'page', page: { data, next_cursor, has_more } } as const;
    } catch (error) {
      if (caller?.aborted) return { kind: 'aborted' } as const;
      if (timeout.signal.aborted) return { kind: 'timeout' } as const;
      return { kind: 'network', detail: errorCode(error) } as const;
    } finally {
      clearTimeout(timer);
    }
  }

  async function listPayments(
    query: ListRequest,
    context: CallContext,
  ): Promise<UpstreamResult<PaymentPage>> {
    // A caller that has gone already: nothing is sent, no attempt counted.
    if (context.signal?.aborted) return { ok: false, failure: abortedFailure(), attempts: 0 };
    const { retries, deadlineMs } =
      context.purpose === 'export'
        ? (options.budgets?.export ?? EXPORT_BUDGET)
        : (options.budgets?.list ?? LIST_BUDGET);
    const deadlineAt = Date.now() + deadlineMs;
    const url = new URL(listUrl);
    url.searchParams.set('limit', String(query.limit));
    if (query.cursor !== undefined) url.searchParams.set('cursor', query.cursor);
    if (query.status !== undefined) url.searchParams.set('status', query.status);
    if (query.date_from !== undefined) url.searchParams.set('date_from', query.date_from);
    // Built from scratch: nothing the browser sent can reach the upstream.
    const headers: Record<string, string> = {
      authorization,
      accept: 'application/json',
      'accept-encoding': 'gzip, deflate, br',
    };
    if (context.companyId !== options.ownCompanyId) headers['x-company-id'] = context.companyId;

    for (let attempts = 1; ; attempts++) {
      const remaining = deadlineAt - Date.now();
      const outcome: Attempt =
        remaining <= 0
          ? { kind: 'timeout' }
          : await attemptOnce(url, headers, Math.min(attemptTimeoutMs, remaining), context.signal);
      if (outcome.kind === 'page') return { ok: true, value: outcome.page, attempts };
      if (outcome.kind === 'aborted') return { ok: false, failure: abortedFailure(), attempts };
      options.log?.({
        event: 'upstream_attempt_failed',
        attempt: attempts,
        outcome:
          outcome.kind === 'network' || outcome.kind === 'bad'
            ? `${outcome.kind}: ${outcome.detail}`
            : outcome.kind,
        ...(outcome.kind === 'status' ? { status: outcome.status, content_type: outcome.contentType } : {}),
      });
      const retryable =
        outcome.kind === 'network' ||
        outcome.kind === 'timeout' ||
        (outcome.kind === 'bad' && outcome.retryable) ||
        (outcome.kind === 'status' && RETRYABLE_STATUSES.has(outcome.status));
      if (retryable && attempts <= retries) {
        const asked = outcome.kind === 'status' ? (outcome.retryAfterMs ?? 0) : 0;
        const wait = Math.max(backoffDelay(attempts - 1, backoff), asked);
        if (Date.now() + wait < deadlineAt) {
          try {
            await sleep(wait, undefined, context.signal ? { signal: context.signal } : {});
            continue;
          } catch {
            return { ok: false, failure: abortedFailure(), attempts };
          }
        }
      }
      return { ok: false, failure: failureOf(outcome, query.cursor !== undefined), attempts };
    }
  }

  return {
    listPayments,
    async close() {
      await agent.close();
    },
  };
}

function header(response: Dispatcher.ResponseData, name: string): string | undefined {
  const value = response.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

const DECODERS: Record<string, (bytes: Buffer, options: { maxOutputLength: number }) => Promise<Buffer>> = {
  gzip: promisify(gunzip),
  'x-gzip': promisify(gunzip),
  deflate: promisify(inflate),
  br: promisify(brotliDecompress),
};

/** The body as text, or null past MAX_BODY_BYTES (counted after decompression too, so a small bomb cannot grow). */
async function boundedText(response: Dispatcher.ResponseData): Promise<string | null> {
  if (Number(header(response, 'content-length')) > MAX_BODY_BYTES) {
    await response.body.dump();
    return null;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  // Leaving the loop early destroys the body, and with it the connection's read.
  for await (const chunk of response.body as AsyncIterable<Buffer>) {
    size += chunk.byteLength;
    if (size > MAX_BODY_BYTES) return null;
    chunks.push(chunk);
  }
  let bytes: Buffer = Buffer.concat(chunks, size);
  const encoding = header(response, 'content-encoding')?.trim().toLowerCase();
  if (encoding && encoding !== 'identity') {
    const decode = DECODERS[encoding];
    if (!decode) throw Object.assign(new Error(`content-encoding ${encoding}`), { code: 'UNKNOWN_ENCODING' });
    try {
      bytes = await decode(bytes, { maxOutputLength: MAX_BODY_BYTES });
    } catch (error) {
      if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') return null;
      throw error;
    }
  }
  // As Response.text() reads it: a leading byte order mark is not part of the text.
  return utf8.decode(bytes);
}

const utf8 = new TextDecoder();

/** An integer literal of 16 or more digits: the only numbers JSON.parse may not keep to the digit. */
const LONG_NUMBER = /[-:,[\s]\d{16}/;

/**
 * JSON.parse, but an integer beyond 2^53 is kept as the raw JSON text the upstream sent (a number would lose
 * its last digits), so an id or amount of that size reaches the browser and the export digit for digit. The
 * reviver costs five plain parses, so it runs only for a page that holds such a number.
 */
function parseKeepingDigits(text: string): unknown {
  if (!LONG_NUMBER.test(text)) return JSON.parse(text);
  return JSON.parse(text, (_key, value: unknown, context?: { source?: string }) =>
    typeof value === 'number' && Number.isInteger(value) && !Number.isSafeInteger(value) && context?.source
      ? JSON.rawJSON(context.source)
      : value,
  );
}

function abortedFailure(): UpstreamFailure {
  return { code: 'upstream_unavailable', status: 502, detail: 'the request was cancelled', aborted: true };
}

/** Maps the last outcome to the problem the browser sees; upstream bodies are never echoed. */
function failureOf(
  outcome: Exclude<Attempt, { kind: 'page' | 'aborted' }>,
  sentCursor: boolean,
): UpstreamFailure {
  switch (outcome.kind) {
    case 'timeout':
      return { code: 'upstream_timeout', status: 504, detail: 'the payments service did not answer in time' };
    case 'network':
      return { code: 'upstream_unavailable', status: 502, detail: 'the payments service cannot be reached' };
    case 'bad':
      return {
        code: 'upstream_bad_response',
        status: 502,
        detail: 'the payments service sent a response that does not follow its interface',
      };
    case 'status':
      return statusFailure(outcome.status, outcome.retryAfterMs, sentCursor);
  }
}

/** Statuses that, answering a request with a cursor, can only mean the cursor was refused (the spec does not say which). */
const CURSOR_REFUSALS = new Set([400, 404, 409, 410, 422]);

function statusFailure(
  status: number,
  retryAfterMs: number | undefined,
  sentCursor: boolean,
): UpstreamFailure {
  if (status === 401)
    return {
      code: 'upstream_rejected_credentials',
      status: 502,
      detail: 'the payments service rejected the dashboard credentials; an administrator must check them',
    };
  if (status === 403)
    return { code: 'forbidden_company', status: 403, detail: 'the payments service refused this company' };
  if (status === 429)
    return {
      code: 'rate_limited',
      status: 503,
      detail: 'the payments service is limiting requests; try again shortly',
      retryAfterSeconds: Math.max(1, Math.ceil((retryAfterMs ?? 5_000) / 1000)),
    };
  if (status === 504)
    return { code: 'upstream_timeout', status: 504, detail: 'the payments service timed out' };
  if (status >= 500)
    return { code: 'upstream_unavailable', status: 502, detail: 'the payments service is failing' };
  // Every parameter was validated before it left, but an upstream may know fewer statuses than the dashboard
  // lets a user type: a request without a cursor refused as bad is refused for its filters.
  if (!sentCursor && (status === 400 || status === 422))
    return {
      code: 'invalid_parameter',
      status: 400,
      detail: 'the payments service does not accept these filters (a status it does not know?)',
    };
  // A refusal of a request with a cursor is of the cursor.
  if (sentCursor && CURSOR_REFUSALS.has(status))
    return {
      code: 'cursor_mismatch',
      status: 400,
      detail:
        'the payments service no longer accepts this position in the list; start again from the first page',
    };
  return {
    code: 'upstream_bad_response',
    status: 502,
    detail: `the payments service answered with an unexpected status ${status}`,
  };
}

function errorCode(error: unknown): string {
  if (typeof error !== 'object' || error === null) return 'unknown';
  const e = error as { code?: unknown; name?: unknown; cause?: unknown };
  if (e.cause !== undefined && e.cause !== error) {
    const inner = errorCode(e.cause);
    if (inner !== 'unknown') return inner;
  }
  if (typeof e.code === 'string') return e.code;
  return typeof e.name === 'string' ? e.name : 'unknown';
}
