import type { PaymentPage } from '@payments/shared';
import type { CallContext, ListRequest, UpstreamObservation, UpstreamResult } from './upstream-calls.ts';
import { abortedFailure } from './upstream-failures.ts';

/** Answers kept for reuse at most (pages of 100 records: a few MB). */
const REUSE_ENTRIES = 256;

/**
 * Identical requests (company, limit, cursor, filters) in flight share one call, and a page fetched less than
 * `pageReuseMs` ago answers again. The shared call goes on while any of its callers still waits; each caller
 * can leave on its own signal.
 */
export function sharedCalls(
  fetchPage: (query: ListRequest, context: CallContext) => Promise<UpstreamResult<PaymentPage>>,
  options: { pageReuseMs?: number | undefined; observe?: ((event: UpstreamObservation) => void) | undefined },
) {
  const reuseMs = options.pageReuseMs ?? 0;
  const inFlight = new Map<
    string,
    {
      result: Promise<UpstreamResult<PaymentPage>>;
      waiting: number;
      stop: AbortController;
      startedAt: number;
    }
  >();
  const recent = new Map<string, { at: number; startedAt: number; result: UpstreamResult<PaymentPage> }>();
  return async (query: ListRequest, context: CallContext): Promise<UpstreamResult<PaymentPage>> => {
    if (context.signal?.aborted) return { ok: false, failure: abortedFailure(), attempts: 0 };
    const key = JSON.stringify([context.companyId, query.limit, query.cursor, query.status, query.date_from]);
    const notBefore = context.notBefore ?? Number.NEGATIVE_INFINITY;
    const kept = recent.get(key);
    if (kept !== undefined && performance.now() - kept.at < reuseMs && kept.startedAt >= notBefore) {
      options.observe?.({ kind: 'shared', how: 'reused' });
      return { ...kept.result, attempts: 0 };
    }
    let call = inFlight.get(key);
    // A call begun before the caller's `notBefore` is not joined: a new one starts, and later callers join that.
    if (call !== undefined && call.startedAt < notBefore) call = undefined;
    const joined = call !== undefined;
    if (call === undefined) {
      const stop = new AbortController();
      const startedAt = performance.now();
      const result = fetchPage(query, { ...context, signal: stop.signal }).then((done) => {
        if (inFlight.get(key) === fresh) inFlight.delete(key);
        if (done.ok && reuseMs > 0 && (recent.get(key)?.startedAt ?? Number.NEGATIVE_INFINITY) <= startedAt) {
          recent.delete(key);
          recent.set(key, { at: performance.now(), startedAt, result: done });
          if (recent.size > REUSE_ENTRIES) recent.delete(recent.keys().next().value as string);
        }
        return done;
      });
      const fresh = { result, waiting: 0, stop, startedAt };
      call = fresh;
      inFlight.set(key, call);
    } else options.observe?.({ kind: 'shared', how: 'in_flight' });
    const shared = call;
    shared.waiting += 1;
    let leave = () => {};
    const left = new Promise<UpstreamResult<PaymentPage>>((resolve) => {
      leave = () => resolve({ ok: false, failure: abortedFailure(), attempts: 0 });
      context.signal?.addEventListener('abort', leave, { once: true });
    });
    try {
      const result = await Promise.race([shared.result, left]);
      return joined ? { ...result, attempts: 0 } : result;
    } finally {
      context.signal?.removeEventListener('abort', leave);
      shared.waiting -= 1;
      // Nobody waits any more: the call stops (and says so to whoever asks the same next).
      if (shared.waiting === 0 && inFlight.get(key) === shared) {
        shared.stop.abort();
        inFlight.delete(key);
      }
    }
  };
}
