import type { IncomingHttpHeaders } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ErrorCode, PaymentPage } from '@payments/shared';
import { Agent, type Dispatcher } from 'undici';
import { createExcerptScrubber } from './excerpt-scrubber.ts';
import { bodyText, type Decoded, decodePage, decodePageJson, type PageJson } from './page-decoding.ts';
import { backoffDelay, parseRetryAfter, RETRYABLE_STATUSES } from './retry-policy.ts';

export interface UpstreamCredentials {
  secretId: string;
  secretPassword: string;
}

/** The credentials as the Basic scheme carries them (RFC 7617): base64 of `id:password`. */
export function basicCredentials({ secretId, secretPassword }: UpstreamCredentials): string {
  return Buffer.from(`${secretId}:${secretPassword}`).toString('base64');
}

export interface UpstreamClientOptions {
  /** Base address with its version segment, e.g. `https://api.example.com/v1`. */
  baseUrl: string;
  credentials: UpstreamCredentials;
  /** The caller's own company: requests for it carry no `X-Company-Id` (the spec defines it for children). */
  ownCompanyId?: string;
  attemptTimeoutMs?: number;
  deadlineMs?: number;
  maxRetries?: number;
  backoffBaseMs?: number;
  backoffCapMs?: number;
  random?: () => number;
  /** Keep-alive sockets per upstream origin. */
  connections?: number;
  /** Called right after each request is handed to the connection pool, while the upstream works on it. */
  afterSend?: () => void;
  /** Receives one event per failed attempt; excerpts are bounded and scrubbed of the credentials. */
  log?: (event: UpstreamLogEvent) => void;
}

export interface UpstreamLogEvent {
  event: 'upstream_attempt_failed';
  attempt: number;
  outcome: string;
  status?: number;
  excerpt?: string;
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

type Query = { companyId: string; signal?: AbortSignal | undefined };

export interface UpstreamClient {
  /** One page with its records, validated (the export reads them). */
  listPayments(query: ListRequest, context: Query): Promise<UpstreamResult<PaymentPage>>;
  /** One page for forwarding as it is, validated just as strictly. */
  listPaymentsJson(query: ListRequest, context: Query): Promise<UpstreamResult<PageJson>>;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 8 * 1024 * 1024;
const EXCERPT_CHARS = 300;

/** Decodes a 200's body; the answer may keep views of `bytes`. */
type Decode<T> = (bytes: Buffer) => Decoded<T>;

type Attempt<T> =
  | { kind: 'page'; value: T }
  | { kind: 'status'; status: number; retryAfterMs: number | undefined; excerpt: string }
  | { kind: 'bad'; detail: string; excerpt: string }
  | { kind: 'network'; detail: string }
  | { kind: 'timeout' }
  | { kind: 'aborted' };

/** One exchange with the upstream: its answer whole, or why there is none. */
type Exchange =
  | { kind: 'answer'; status: number; headers: IncomingHttpHeaders; body: Buffer }
  | { kind: 'tooLarge' }
  | Extract<Attempt<never>, { kind: 'network' | 'timeout' | 'aborted' }>;

/**
 * The only door to the Payments API. Built on undici's pooled keep-alive `Agent` (measured several times faster
 * than `fetch` on this machine, see the bff benchmark). Never throws: every outcome is a value with a code.
 */
export function createUpstreamClient(options: UpstreamClientOptions): UpstreamClient {
  const attemptTimeoutMs = options.attemptTimeoutMs ?? 10_000;
  const deadlineMs = options.deadlineMs ?? 25_000;
  const maxRetries = options.maxRetries ?? 3;
  const backoff = {
    baseMs: options.backoffBaseMs ?? 100,
    capMs: options.backoffCapMs ?? 2_000,
    random: options.random ?? Math.random,
  };
  const base = new URL(options.baseUrl.endsWith('/') ? options.baseUrl : `${options.baseUrl}/`);
  // Read once: URL's getters build their strings on every read.
  const { origin, pathname: listPath } = new URL('payments/', base);
  const { secretId, secretPassword } = options.credentials;
  const basic = basicCredentials(options.credentials);
  const authorization = `Basic ${basic}`;
  const scrub = createExcerptScrubber([basic, secretPassword, secretId], EXCERPT_CHARS);
  const agent = new Agent({
    connections: options.connections ?? 128,
    keepAliveTimeout: 30_000,
    connect: { timeout: attemptTimeoutMs },
  });

  /**
   * One request upstream and its whole answer, bounded as a whole (headers and body together) by `timeoutMs` and
   * cancelled when `caller` aborts. Driven by undici's `dispatch` with a handler of our own: `request` adds a body
   * stream, an abort signal and their listeners to every call (measured in the BFF: 30-40 µs more CPU per page and
   * 0.02-0.04 ms more added p50), and its headers and body timeouts restart with every chunk, so a body trickled
   * out byte by byte would outlive them; one timer per exchange stops it instead.
   */
  function exchange(
    path: string,
    headers: Record<string, string>,
    timeoutMs: number,
    caller: AbortSignal | undefined,
  ): Promise<Exchange> {
    return new Promise((resolve) => {
      let controller: Dispatcher.DispatchController | undefined;
      let settled = false;
      let status = 0;
      let responseHeaders: IncomingHttpHeaders = {};
      const chunks: Buffer[] = [];
      let size = 0;
      const settle = (outcome: Exchange) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        caller?.removeEventListener('abort', onCallerAbort);
        resolve(outcome);
      };
      /** Ends the exchange with `outcome` and has undici drop the request (and its socket, when in flight). */
      const stop = (outcome: Exchange) => {
        settle(outcome);
        controller?.abort(new Error(`upstream exchange stopped: ${outcome.kind}`));
      };
      const timer = setTimeout(() => stop({ kind: 'timeout' }), timeoutMs);
      const onCallerAbort = () => stop({ kind: 'aborted' });
      caller?.addEventListener('abort', onCallerAbort, { once: true });
      // A failure to dispatch at all (a closed client) also comes to onResponseError: dispatch itself never throws.
      agent.dispatch(
        { origin, path, method: 'GET', headers },
        {
          onRequestStart(started) {
            controller = started;
            // Stopped while it waited in the pool's queue.
            if (settled) started.abort(new Error('upstream exchange stopped before it started'));
          },
          onResponseStart(_, statusCode, answerHeaders) {
            status = statusCode;
            responseHeaders = answerHeaders;
            if (Number(answerHeaders['content-length']) > MAX_BODY_BYTES) stop({ kind: 'tooLarge' });
          },
          // A page usually comes in one read: that chunk is the socket's own, which nothing reads into again,
          // so the body (and a decoded page's views of it) may keep it.
          onResponseData(_, chunk) {
            size += chunk.length;
            if (size > MAX_BODY_BYTES) stop({ kind: 'tooLarge' });
            else chunks.push(chunk);
          },
          onResponseEnd() {
            const body = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size);
            settle({ kind: 'answer', status, headers: responseHeaders, body });
          },
          onResponseError(_, error) {
            settle(
              isTimeoutError(error) ? { kind: 'timeout' } : { kind: 'network', detail: errorCode(error) },
            );
          },
        },
      );
      options.afterSend?.();
    });
  }

  async function attemptOnce<T>(
    path: string,
    headers: Record<string, string>,
    decode: Decode<T>,
    timeoutMs: number,
    caller: AbortSignal | undefined,
  ): Promise<Attempt<T>> {
    if (caller?.aborted) return { kind: 'aborted' };
    const answer = await exchange(path, headers, timeoutMs, caller);
    if (answer.kind === 'tooLarge') return { kind: 'bad', detail: 'response body too large', excerpt: '' };
    if (answer.kind !== 'answer') return answer;
    if (answer.status !== 200) {
      const retryAfter = answer.headers['retry-after'];
      return {
        kind: 'status',
        status: answer.status,
        retryAfterMs: parseRetryAfter(Array.isArray(retryAfter) ? retryAfter[0] : retryAfter, Date.now()),
        excerpt: scrub(bodyText(answer.body)),
      };
    }
    const decoded = decode(answer.body);
    return decoded.ok
      ? { kind: 'page', value: decoded.value }
      : { kind: 'bad', detail: decoded.detail, excerpt: scrub(decoded.text) };
  }

  function list<T>(query: ListRequest, context: Query, decode: Decode<T>): Promise<UpstreamResult<T>> {
    if (context.signal?.aborted)
      return Promise.resolve({ ok: false, failure: abortedFailure(), attempts: 0 });
    const params = new URLSearchParams({ limit: String(query.limit) });
    if (query.cursor !== undefined) params.set('cursor', query.cursor);
    if (query.status !== undefined) params.set('status', query.status);
    if (query.date_from !== undefined) params.set('date_from', query.date_from);
    // Built from scratch on purpose: nothing the browser sent can reach the upstream.
    const headers: Record<string, string> = { authorization, accept: 'application/json' };
    if (context.companyId !== options.ownCompanyId) headers['x-company-id'] = context.companyId;
    // The overall deadline: each attempt is bounded by what is left of it, and no backoff waits past it.
    return attemptAll(
      `${listPath}?${params}`,
      headers,
      decode,
      query.cursor !== undefined,
      Date.now() + deadlineMs,
      context.signal,
    );
  }

  async function attemptAll<T>(
    path: string,
    headers: Record<string, string>,
    decode: Decode<T>,
    sentCursor: boolean,
    deadlineAt: number,
    caller: AbortSignal | undefined,
  ): Promise<UpstreamResult<T>> {
    let attempts = 0;
    for (;;) {
      attempts += 1;
      const remaining = deadlineAt - Date.now();
      const outcome: Attempt<T> =
        remaining <= 0
          ? { kind: 'timeout' }
          : await attemptOnce(path, headers, decode, Math.min(attemptTimeoutMs, remaining), caller);
      if (outcome.kind === 'page') return { ok: true, value: outcome.value, attempts };
      if (outcome.kind !== 'aborted') {
        options.log?.({
          event: 'upstream_attempt_failed',
          attempt: attempts,
          outcome: outcome.kind === 'network' ? `network ${outcome.detail}` : outcome.kind,
          ...(outcome.kind === 'status' ? { status: outcome.status } : {}),
          ...('excerpt' in outcome && outcome.excerpt ? { excerpt: outcome.excerpt } : {}),
        });
      }
      const retryable =
        outcome.kind === 'network' ||
        outcome.kind === 'timeout' ||
        (outcome.kind === 'status' && RETRYABLE_STATUSES.has(outcome.status));
      if (retryable && attempts <= maxRetries) {
        const wait = Math.max(
          backoffDelay(attempts - 1, backoff),
          outcome.kind === 'status' ? (outcome.retryAfterMs ?? 0) : 0,
        );
        if (Date.now() + wait < deadlineAt) {
          try {
            await sleep(wait, undefined, caller ? { signal: caller } : {});
            continue;
          } catch {
            return { ok: false, failure: abortedFailure(), attempts };
          }
        }
      }
      return { ok: false, failure: failureOf(outcome, sentCursor), attempts };
    }
  }

  return {
    listPayments: (query, context) => list(query, context, decodePage),
    listPaymentsJson: (query, context) => list(query, context, decodePageJson),
    async close() {
      await agent.close();
    },
  };
}

function abortedFailure(): UpstreamFailure {
  return { code: 'upstream_unavailable', status: 502, detail: 'the request was cancelled', aborted: true };
}

/** Maps the last outcome to the problem the browser sees; upstream bodies are never echoed. */
function failureOf(
  outcome: Exclude<Attempt<unknown>, { kind: 'page' }>,
  sentCursor: boolean,
): UpstreamFailure {
  switch (outcome.kind) {
    case 'aborted':
      return abortedFailure();
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
      return statusFailure(outcome.status, outcome.retryAfterMs, outcome.excerpt, sentCursor);
  }
}

function statusFailure(
  status: number,
  retryAfterMs: number | undefined,
  excerpt: string,
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
  // The real upstream's error bodies are unknown: a 400 that names the cursor is taken as a cursor refusal.
  if (status === 400 && sentCursor && /cursor/i.test(excerpt))
    return {
      code: 'cursor_mismatch',
      status: 400,
      detail: 'the payments service no longer accepts this cursor; start again from the first page',
    };
  return {
    code: 'upstream_bad_response',
    status: 502,
    detail: `the payments service answered with an unexpected status ${status}`,
  };
}

function isTimeoutError(error: unknown): boolean {
  const code = errorCode(error);
  return (
    code === 'UND_ERR_HEADERS_TIMEOUT' ||
    code === 'UND_ERR_BODY_TIMEOUT' ||
    code === 'UND_ERR_CONNECT_TIMEOUT' ||
    code === 'TimeoutError'
  );
}

function errorCode(error: unknown): string {
  if (typeof error !== 'object' || error === null) return 'unknown';
  const e = error as { code?: unknown; name?: unknown; cause?: unknown };
  if (typeof e.code === 'string') return e.code;
  if (e.cause !== undefined && e.cause !== error) {
    const inner = errorCode(e.cause);
    if (inner !== 'unknown') return inner;
  }
  return typeof e.name === 'string' ? e.name : 'unknown';
}
