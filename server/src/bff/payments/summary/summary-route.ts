import { type Summary, summaryQuerySchema } from '@payments/shared';
import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { Settings } from '../../../config/settings.ts';
import type { UpstreamFailure } from '../../../upstream/index.ts';
import type { BffEnv } from '../../bff-env.ts';
import { validQuery } from '../../middleware/query-validator.ts';
import { problemResponse } from '../../problem-response.ts';
import { paymentMatcher } from '../search/payment-match.ts';
import { type Checkpoints, positionsFor, REPLANS } from '../walk/checkpoints.ts';
import type { CompanyReader } from '../walk/company-reader.ts';
import type { CompanyScope } from '../walk/company-scope.ts';
import { type PartsConsumer, walkInParts } from '../walk/segmented-walk.ts';
import { upstreamProblem, type View, viewOf } from '../walk/view.ts';
import type { WalkPlaces } from '../walk/walk-places.ts';
import { companyWalk, planWalk } from '../walk/walk-plan.ts';
import { createSummaryCounter, type SummaryCounter } from './summary-counter.ts';
import { type SummaryRuns, summaryKey } from './summary-runs.ts';

/**
 * Parts of a walk counted apart until each is accepted (it joins the part before it exactly); then what it
 * counted goes into `total`, and so does every row it reads after.
 */
function countingParts(
  total: SummaryCounter,
  newCounter: () => SummaryCounter,
  onPage: (rows: number) => void,
  stopped: () => boolean,
): PartsConsumer {
  const pending = new Map<number, SummaryCounter>();
  const accepted = new Set<number>();
  return {
    open(part) {
      const own = newCounter();
      pending.set(part, own);
      return {
        add: (rows) => {
          const into = accepted.has(part) ? total : own;
          for (const row of rows) into.add(row);
        },
        end() {},
      };
    },
    accept(part) {
      accepted.add(part);
      const own = pending.get(part);
      pending.delete(part);
      if (own) total.merge(own);
    },
    onPage,
    stopped,
  };
}

/** How often a walk starts again when a remembered position it started from proved wrong. */

/**
 * `GET /api/payments/summary`: a view's figures, as JSON or as a stream of progress events ending with them
 * (`Accept: text/event-stream`). A group's companies are walked at once, each split at remembered positions into
 * parts walked at once. One run per user; finished figures are cached per question.
 */
export function summaryRoute(parts: {
  settings: Pick<
    Settings,
    | 'PAYMENTS_TIME_ZONE'
    | 'PAYMENTS_AMOUNT_UNIT'
    | 'PAYMENTS_LIST_ORDER'
    | 'PAYMENTS_SETTLED_STATUSES'
    | 'SUMMARY_MAX_ROWS'
    | 'WALKS_PER_USER'
  >;
  scope: CompanyScope;
  runs: SummaryRuns;
  walks: WalkPlaces;
  read: CompanyReader;
  checkpoints: Checkpoints;
}) {
  const { settings, runs } = parts;
  const timeZone = settings.PAYMENTS_TIME_ZONE;
  const order = settings.PAYMENTS_LIST_ORDER;
  const newCounter = () =>
    createSummaryCounter({
      timeZone,
      amountUnit: settings.PAYMENTS_AMOUNT_UNIT,
      settledStatuses: settings.PAYMENTS_SETTLED_STATUSES,
    });

  /** Counts a view into `total`: every company at once; `counted` hears of every page. */
  async function count(
    view: View,
    total: SummaryCounter,
    signal: AbortSignal,
    counted: (rows: number) => void,
  ) {
    let read = 0;
    const stopped = () => read >= settings.SUMMARY_MAX_ROWS;
    const onPage = (rows: number) => {
      read += rows;
      counted(rows);
    };
    // Each company counts apart, then adds into the group's figures: its own line comes of the same walk.
    const company = async (id: string) => {
      for (let replan = 0; ; replan++) {
        const own = newCounter();
        const checkpoints = positionsFor(replan, parts.checkpoints);
        const plan = await planWalk(view, id, { checkpoints, order, timeZone });
        const walk = companyWalk(view, id, plan.filters, { timeZone, cls: 'walk', signal });
        const outcome = await walkInParts(walk, plan, {
          read: parts.read,
          order,
          consumer: countingParts(own, newCounter, onPage, stopped),
        });
        if (outcome.ok || !outcome.stale || replan >= REPLANS) return { outcome, own };
      }
    };
    const walked = await Promise.all(view.members.map(company));
    for (const { own } of walked) total.merge(own);
    const outcomes = walked.map(({ outcome }) => outcome);
    const attempts = outcomes.reduce((sum, o) => sum + o.attempts, 0);
    const failed = outcomes.find((o) => !o.ok);
    const companies = walked.map(({ own }, i) => {
      const figures = own.result(true);
      return {
        company_id: view.members[i] as string,
        count: figures.count,
        totals: figures.totals,
        by_status_totals: figures.by_status_totals ?? [],
        uninterpreted: figures.uninterpreted,
      };
    });
    return {
      failure: failed && !failed.ok ? failed.failure : undefined,
      complete: !stopped(),
      attempts,
      companies,
    };
  }

  return new Hono<BffEnv>().get('/', validQuery(summaryQuerySchema), async (c) => {
    const { fresh, q, ...query } = c.req.valid('query');
    const chosen = viewOf(c, parts.scope, query, { amountUnit: settings.PAYMENTS_AMOUNT_UNIT });
    if (!chosen.ok) return chosen.response;
    // A search's figures are of its matches: the rows the search lists, counted as the list counts them.
    const view: View =
      q === undefined
        ? chosen.view
        : { ...chosen.view, search: { q, matches: paymentMatcher(q, settings.PAYMENTS_AMOUNT_UNIT) } };
    const user = view.user.username;
    const key = summaryKey(view);
    const streaming = (c.req.header('accept') ?? '').includes('text/event-stream');
    const hit = fresh === 'true' ? undefined : await runs.cached(key);
    if (hit !== undefined && !streaming) return c.json(hit, 200);
    const claim = hit === undefined ? await runs.claim(user) : undefined;
    // A walk of its own takes one of the user's walk places; joining one under way takes none.
    const place = hit !== undefined || runs.isRunning(key) ? undefined : await parts.walks.enter(user);
    if (place === null) {
      claim?.leave();
      return problemResponse(c, 'rate_limited', 429, busyWalks(settings.WALKS_PER_USER), {
        retryAfterSeconds: 5,
      });
    }
    const waiting = AbortSignal.any([c.req.raw.signal, ...(claim ? [claim.lost] : [])]);
    /** The figures: of the walk under way for this question, or of a new one, reporting progress as pages arrive. */
    const figures = async (
      progress: (counted: number) => void,
    ): Promise<Summary | UpstreamFailure | 'left'> => {
      const asOf = new Date().toISOString();
      const outcome = await runs.await(
        key,
        async (signal, counted) => {
          const total = newCounter();
          const walked = await count(view, total, signal, counted).finally(() => place?.leave());
          c.set('upstreamAttempts', c.get('upstreamAttempts') + walked.attempts);
          const companies = view.group ? { companies: walked.companies } : {};
          return walked.failure ?? { ...total.result(walked.complete), as_of: asOf, ...companies };
        },
        { signal: waiting, progress },
      );
      place?.leave();
      return outcome;
    };
    const superseded = () =>
      problemResponse(c, 'summary_superseded', 409, 'a newer count of yours replaced this one');
    if (!streaming) {
      const outcome = await figures(() => {}).finally(() => claim?.leave());
      if (outcome === 'left') return claim?.lost.aborted ? superseded() : c.body(null, 204);
      return 'count' in outcome ? c.json(outcome, 200) : upstreamProblem(c, outcome);
    }
    return streamSSE(c, async (stream) => {
      try {
        // Progress is written as it comes, each event after the one before.
        let writing = Promise.resolve();
        const progress = (counted: number) => {
          writing = writing.then(() =>
            stream.writeSSE({ event: 'progress', data: JSON.stringify({ counted }) }),
          );
        };
        const outcome = hit ?? (await figures(progress));
        await writing;
        const problem = (code: string, status: number, detail: string) =>
          stream.writeSSE({ event: 'error', data: JSON.stringify({ code, status, detail }) });
        if (outcome === 'left') {
          if (claim?.lost.aborted)
            await problem('summary_superseded', 409, 'a newer count of yours replaced this one');
        } else if ('count' in outcome)
          await stream.writeSSE({ event: 'summary', data: JSON.stringify(outcome) });
        else if (!outcome.aborted) await problem(outcome.code, outcome.status, outcome.detail);
      } finally {
        claim?.leave();
      }
    });
  });
}

/** Why a walk was refused: the user's places are all taken. */
export const busyWalks = (places: number) =>
  `you have ${places} counts, searches or downloads running already; wait for one to finish`;
