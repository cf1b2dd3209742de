import { setTimeout as sleep } from 'node:timers/promises';
import type { PaymentPage } from '@payments/shared';
import { Agent, type Dispatcher } from 'undici';
import { header, readPage } from './page-reading.ts';
import { backoffDelay, parseRetryAfter, RETRYABLE_STATUSES } from './retry-policy.ts';
import { sharedCalls } from './shared-calls.ts';
import type { AttemptEnd, UpstreamBudget } from './upstream-budget.ts';
import type { CallContext, ListRequest, UpstreamObservation, UpstreamResult } from './upstream-calls.ts';
import { abortedFailure, errorCode, type FailedAttempt, failureOf } from './upstream-failures.ts';

export type { UpstreamResult } from './upstream-calls.ts';
export type { UpstreamFailure } from './upstream-failures.ts';

export interface UpstreamCredentials {
  secretId: string;
  secretPassword: string;
}

/** The credentials as the Basic scheme carries them (RFC 7617): base64 of `id:password`. */
export function basicCredentials({ secretId, secretPassword }: UpstreamCredentials): string {
  return Buffer.from(`${secretId}:${secretPassword}`).toString('base64');
}

/** How hard one call tries: retries after the first attempt, and a deadline for all of them together. */
interface RetryBudget {
  retries: number;
  deadlineMs: number;
}

/** A page the browser waits for: a few quick retries, then a clear error it can retry itself. */
const LIST_BUDGET: RetryBudget = { retries: 3, deadlineMs: 25_000 };
/** A page of a walk (an export, a summary): a passing fault must not cost a download of many thousand rows. */
const EXPORT_BUDGET: RetryBudget = { retries: 10, deadlineMs: 120_000 };

export interface UpstreamClientOptions {
  /** Base address with its version segment, e.g. `https://api.example.com/v1`. */
  baseUrl: string;
  credentials: UpstreamCredentials;
  /** The caller's own company: requests for it carry no `X-Company-Id` (the spec defines it for children). */
  ownCompanyId?: string | undefined;
  attemptTimeoutMs?: number;
  backoffBaseMs?: number;
  backoffCapMs?: number;
  random?: () => number;
  /** The budgets of pages a person waits for and of walks' pages (LIST_BUDGET and EXPORT_BUDGET unless set). */
  budgets?: { list?: RetryBudget; export?: RetryBudget };
  /** Sockets to the upstream at most: bounded, so a crowd of browsers cannot exhaust file descriptors. */
  connections?: number;
  /** Where requests go instead of the network (tests serve an upstream in-process). */
  dispatcher?: Dispatcher;
  /** The deployment's turns at the upstream; without one, every attempt goes at once. */
  budget?: UpstreamBudget;
  /** UPSTREAM_PAGE_REUSE_MS: a page just fetched answers the same request again for this long. */
  pageReuseMs?: number;
  /** Receives one event per failed attempt: statuses and structural faults, never body text. */
  log?: (event: UpstreamLogEvent) => void;
  /** Receives every attempt's end and every answer shared with another caller (for the metrics). */
  observe?: (event: UpstreamObservation) => void;
}

export interface UpstreamLogEvent {
  event: 'upstream_attempt_failed';
  attempt: number;
  outcome: string;
  status?: number;
  content_type?: string;
}

export interface UpstreamClient {
  /**
   * One page, its envelope and records checked against the shared schema; records pass as they came. Identical
   * requests in flight share one call (and, for `pageReuseMs`, its answer); a caller that shared reports 0 attempts.
   */
  listPayments(query: ListRequest, context: CallContext): Promise<UpstreamResult<PaymentPage>>;
  close(): Promise<void>;
}

type Attempt = { kind: 'page'; page: PaymentPage } | { kind: 'aborted' } | FailedAttempt;

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
  // Bodies are decoded by page-reading.ts, not by undici's decompress interceptor: undici 8 marks that one
  // experimental and prints a warning on stderr at every start.
  const dispatcher =
    options.dispatcher ??
    new Agent({
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
      const response = await dispatcher.request({
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
      return await readPage(response);
    } catch (error) {
      if (caller?.aborted) return { kind: 'aborted' } as const;
      if (timeout.signal.aborted) return { kind: 'timeout' } as const;
      return { kind: 'network', detail: errorCode(error) } as const;
    } finally {
      clearTimeout(timer);
    }
  }

  /** One attempt in its turn: the budget decides when it goes, and hears how it ended. */
  async function budgeted(
    url: URL,
    headers: Record<string, string>,
    timeoutMs: number,
    context: CallContext,
  ) {
    const cls = context.cls ?? 'page';
    let end: ((how: AttemptEnd) => void) | undefined;
    if (options.budget) {
      try {
        end = await options.budget.take({ cls, user: context.user ?? '', signal: context.signal });
      } catch {
        if (context.signal?.aborted) return { kind: 'aborted' } as const;
        return { kind: 'network', detail: 'budget_unavailable' } as const;
      }
    }
    const started = performance.now();
    const outcome: Attempt = await attemptOnce(url, headers, timeoutMs, context.signal);
    const limited = outcome.kind === 'status' && outcome.status === 429;
    end?.(outcome.kind === 'page' ? 'ok' : limited ? 'rate_limited' : 'failed');
    if (limited) await options.budget?.refused(outcome.retryAfterMs);
    options.observe?.({
      kind: 'attempt',
      cls,
      outcome: outcome.kind === 'status' ? String(outcome.status) : outcome.kind,
      seconds: (performance.now() - started) / 1000,
    });
    return outcome;
  }

  async function fetchPage(query: ListRequest, context: CallContext): Promise<UpstreamResult<PaymentPage>> {
    // A caller that has gone already: nothing is sent, no attempt counted.
    if (context.signal?.aborted) return { ok: false, failure: abortedFailure(), attempts: 0 };
    const { retries, deadlineMs } =
      (context.cls ?? 'page') === 'page'
        ? (options.budgets?.list ?? LIST_BUDGET)
        : (options.budgets?.export ?? EXPORT_BUDGET);
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
          : await budgeted(url, headers, Math.min(attemptTimeoutMs, remaining), context);
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

  const sharing = sharedCalls(fetchPage, options);
  return {
    listPayments: sharing,
    async close() {
      await dispatcher.close();
    },
  };
}
