import type { RequestClass } from './upstream-budget.ts';
import type { UpstreamFailure } from './upstream-failures.ts';

/** One list request as the upstream receives it; values are already validated by the caller. */
export interface ListRequest {
  limit: number;
  cursor?: string | undefined;
  status?: string | undefined;
  date_from?: string | undefined;
}

export type UpstreamResult<T> =
  | { ok: true; value: T; attempts: number }
  | { ok: false; failure: UpstreamFailure; attempts: number };

export interface CallContext {
  companyId: string;
  signal?: AbortSignal | undefined;
  /** Who waits for the answer: a person's page is served first and tried briefly; a walk's tries harder. */
  cls?: RequestClass | undefined;
  /** Whose turn it is: users take turns within a class. */
  user?: string | undefined;
  /**
   * `performance.now()` before which a shared call or a reused page must not have begun: a Refresh's walk reads
   * what the upstream says from when it was asked on.
   */
  notBefore?: number | undefined;
}

/** What the client reports for the metrics: every attempt's end, and every answer shared with another caller. */
export type UpstreamObservation =
  | { kind: 'attempt'; cls: RequestClass; outcome: string; seconds: number }
  | { kind: 'shared'; how: 'in_flight' | 'reused' };
