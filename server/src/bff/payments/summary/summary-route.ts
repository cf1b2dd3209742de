import { COMPANY_HEADER, type Summary, summaryQuerySchema } from '@payments/shared';
import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { Settings } from '../../../config/settings.ts';
import type { UpstreamFailure } from '../../../upstream/index.ts';
import type { BffEnv } from '../../bff-env.ts';
import { validQuery } from '../../middleware/query-validator.ts';
import { problemFrom, problemResponse } from '../../problem-response.ts';
import { paymentMatcher } from '../search/payment-match.ts';
import { type Checkpoints, positionsFor, REPLANS } from '../walk/checkpoints.ts';
import type { CompanyReader } from '../walk/company-reader.ts';
import type { CompanyScope } from '../walk/company-scope.ts';
import { criticalFirst, pagesLeft } from '../walk/critical-first.ts';
import { type PartsConsumer, walkInParts } from '../walk/segmented-walk.ts';
import { type View, viewOf } from '../walk/view.ts';
import { busyWalks, type WalkPlaces } from '../walk/walk-places.ts';
import { companyWalk, planWalk, rangeOf, WALK_PAGE_SIZE } from '../walk/walk-plan.ts';
import { createDayCells, type DayCells, type DayFigures } from './day-figures.ts';
import { companyLine, createSummaryCounter, type SummaryCounter } from './summary-counter.ts';
import { type SummaryRuns, summaryKey } from './summary-runs.ts';

/** What a part of a walk counts into: the view's figures, and the company's per-day figures. */
interface Tally {
  counter: SummaryCounter;
  cells: DayCells;
}

/**
 * Parts of a walk counted apart until each is accepted (it joins the part before it exactly); then what it
 * counted goes into `total`, and so does every row it reads after.
 */
function countingParts(
  total: Tally,
  newTally: () => Tally,
  onPage: (rows: number) => void,
  stopped: () => boolean,
): PartsConsumer {
  const pending = new Map<number, Tally>();
  const accepted = new Set<number>();
  return {
    open(part) {
      const own = newTally();
      pending.set(part, own);
      return {
        add: (rows) => {
          const into = accepted.has(part) ? total : own;
          for (const row of rows) {
            into.counter.add(row);
            into.cells.add(row);
          }
        },
        end() {},
      };
    },
    accept(part) {
      accepted.add(part);
      const own = pending.get(part);
      pending.delete(part);
      if (own) {
        total.counter.merge(own.counter);
        total.cells.merge(own.cells);
      }
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
    | 'UPSTREAM_MAX_RPS'
  >;
  scope: CompanyScope;
  runs: SummaryRuns;
  walks: WalkPlaces;
  read: CompanyReader;
  checkpoints: Checkpoints;
  days: DayFigures;
  now?: () => number;
}) {
  const { settings, runs } = parts;
  const now = parts.now ?? Date.now;
  const timeZone = settings.PAYMENTS_TIME_ZONE;
  const order = settings.PAYMENTS_LIST_ORDER;
  const newCounter = () =>
    createSummaryCounter({
      timeZone,
      amountUnit: settings.PAYMENTS_AMOUNT_UNIT,
      settledStatuses: settings.PAYMENTS_SETTLED_STATUSES,
    });

  const newTally = () => ({
    counter: newCounter(),
    cells: createDayCells(timeZone, settings.PAYMENTS_AMOUNT_UNIT),
  });
  // Only figures of every status and currency answer every later question.
  const keepsDays = (view: View) =>
    view.statuses === undefined &&
    view.currencies === undefined &&
    view.amount === undefined &&
    view.search === undefined;

  /**
   * Counts a view into `total`: every company at once; `counted` hears of every page. Each company's exact walk
   * leaves its per-day figures, as of `startedAt`.
   */
  async function count(
    view: View,
    total: SummaryCounter,
    signal: AbortSignal,
    counted: (rows: number) => void,
    startedAt: number,
  ) {
    let read = 0;
    // Every row is read from now on: no page asked for before the count began is taken (as_of is a promise).
    const notBefore = performance.now();
    const stopped = () => read >= settings.SUMMARY_MAX_ROWS;
    const onPage = (rows: number) => {
      read += rows;
      counted(rows);
    };
    // A group's companies share the budget: the largest goes first (only newest first says how much is left).
    const gate =
      settings.UPSTREAM_MAX_RPS !== undefined && view.members.length > 1 && order === 'created_at_desc'
        ? criticalFirst(settings.UPSTREAM_MAX_RPS)
        : undefined;
    // Each company counts apart, then adds into the group's figures: its own line comes of the same walk.
    const company = async (id: string) => {
      const seen: { rows: number; newest?: number; oldest?: number } = { rows: 0 };
      const read: CompanyReader = gate
        ? (walk, position) =>
            gate.run(pagesLeft(seen, walk.range.from, WALK_PAGE_SIZE), async () => {
              const page = await parts.read(walk, position);
              const newest = page.ok ? page.keys.find((key) => key.at !== null)?.at : null;
              const oldest = page.ok ? page.keys.findLast((key) => key.at !== null)?.at : null;
              if (page.ok && typeof newest === 'number' && typeof oldest === 'number') {
                seen.rows += page.keys.length;
                seen.newest = Math.max(seen.newest ?? newest, newest);
                seen.oldest = Math.min(seen.oldest ?? oldest, oldest);
              }
              return page;
            })
        : parts.read;
      for (let replan = 0; ; replan++) {
        const own = newCounter();
        const checkpoints = positionsFor(replan, parts.checkpoints);
        const plan = await planWalk(view, id, { checkpoints, order, timeZone });
        const walk = companyWalk(view, id, plan.filters, { timeZone, cls: 'walk', signal, notBefore });
        // The company's own per-day figures; its rows go into the view's total as well.
        const mine = { counter: own, cells: createDayCells(timeZone, settings.PAYMENTS_AMOUNT_UNIT) };
        const outcome = await walkInParts(walk, plan, {
          read,
          order,
          consumer: countingParts(mine, newTally, onPage, stopped),
        });
        if (outcome.ok && !stopped() && keepsDays(view))
          await parts.days.keep(id, mine.cells, walk.range, startedAt).catch(() => undefined);
        if (outcome.ok || !outcome.stale || replan >= REPLANS) return { outcome, own };
      }
    };
    const walked = await Promise.all(view.members.map(company));
    for (const { own } of walked) total.merge(own);
    const outcomes = walked.map(({ outcome }) => outcome);
    const attempts = outcomes.reduce((sum, o) => sum + o.attempts, 0);
    const failed = outcomes.find((o) => !o.ok);
    const companies = walked.map(({ own }, i) => companyLine(view.members[i] as string, own));
    return {
      failure: failed && !failed.ok ? failed.failure : undefined,
      complete: !stopped(),
      attempts,
      companies,
    };
  }

  return new Hono<BffEnv>().get('/', validQuery(summaryQuerySchema), async (c) => {
    const { fresh, q, ...query } = c.req.valid('query');
    const chosen = viewOf(c.get('user'), c.req.header(COMPANY_HEADER), parts.scope, query, {
      amountUnit: settings.PAYMENTS_AMOUNT_UNIT,
    });
    if (!chosen.ok) return problemFrom(c, chosen);
    // A search's figures are of its matches: the rows the search lists, counted as the list counts them.
    const view: View =
      q === undefined
        ? chosen.view
        : { ...chosen.view, search: { q, matches: paymentMatcher(q, settings.PAYMENTS_AMOUNT_UNIT) } };
    // A Refresh promises figures read from now on: it joins no walk begun before it was asked.
    const notBefore = fresh === 'true' ? now() : undefined;
    const user = view.user.username;
    const key = summaryKey(view);
    const streaming = (c.req.header('accept') ?? '').includes('text/event-stream');
    // Not a Refresh: figures cached for the question, or made of kept per-day figures, answer at once.
    const hit =
      fresh === 'true'
        ? undefined
        : ((await runs.cached(key)) ?? (await parts.days.answer(view, rangeOf(view, timeZone))));
    if (hit !== undefined && !streaming) return c.json(hit, 200);
    const claim = hit === undefined ? await runs.claim(user) : undefined;
    // A walk of its own takes one of the user's walk places; joining one under way takes none.
    const place =
      hit !== undefined || runs.isRunning(key, notBefore) ? undefined : await parts.walks.enter(user);
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
      const outcome = await runs.await(
        key,
        async (signal, counted, startedAt) => {
          const total = newCounter();
          const walked = await count(view, total, signal, counted, startedAt).finally(() => place?.leave());
          c.set('upstreamAttempts', c.get('upstreamAttempts') + walked.attempts);
          const companies = view.group ? { companies: walked.companies } : {};
          return (
            walked.failure ?? {
              ...total.result(walked.complete),
              as_of: new Date(startedAt).toISOString(),
              ...companies,
            }
          );
        },
        { signal: waiting, progress, notBefore },
      );
      place?.leave();
      return outcome;
    };
    const superseded = () =>
      problemResponse(c, 'summary_superseded', 409, 'a newer count of yours replaced this one');
    if (!streaming) {
      const outcome = await figures(() => {}).finally(() => claim?.leave());
      if (outcome === 'left') return claim?.lost.aborted ? superseded() : c.body(null, 204);
      return 'count' in outcome ? c.json(outcome, 200) : problemFrom(c, outcome);
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
