import { listFiltersSchema, type Summary } from '@payments/shared';
import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { Settings } from '../../../config/settings.ts';
import type { UpstreamFailure } from '../../../upstream/index.ts';
import type { BffEnv } from '../../bff-env.ts';
import { validQuery } from '../../middleware/query-validator.ts';
import type { CompanyScope } from '../walk/company-scope.ts';
import { keepUpTo } from '../walk/date-range.ts';
import type { ListSources } from '../walk/list-source.ts';
import { upstreamProblem, viewOf } from '../walk/view.ts';
import { createSummaryCounter } from './summary-counter.ts';
import type { SummaryRuns } from './summary-runs.ts';

/** Rows per upstream page of a walk: the spec's maximum, so a walk costs as few requests as it can. */
const WALK_PAGE_SIZE = 100;

/**
 * `GET /api/payments/summary`: a view's figures, as JSON or as a stream of progress events ending with them
 * (`Accept: text/event-stream`). One run per user; finished figures are cached per question.
 */
export function summaryRoute(parts: {
  settings: Pick<Settings, 'PAYMENTS_TIME_ZONE' | 'PAYMENTS_AMOUNT_UNIT' | 'SUMMARY_MAX_ROWS'>;
  scope: CompanyScope;
  sources: ListSources;
  runs: SummaryRuns;
}) {
  const { settings, runs } = parts;
  return new Hono<BffEnv>().get('/', validQuery(listFiltersSchema), async (c) => {
    const chosen = viewOf(c, parts.scope, c.req.valid('query'));
    if (!chosen.ok) return chosen.response;
    const { view } = chosen;
    // A group's figures depend on which of its companies the user may see.
    const key = JSON.stringify([view.members, view.filters.status, view.filters.date_from, view.date_to]);
    const streaming = (c.req.header('accept') ?? '').includes('text/event-stream');
    const hit = await runs.cached(key);
    if (hit !== undefined && !streaming) return c.json(hit, 200);
    const run = await runs.start(view.user.username);
    const signal = AbortSignal.any([run.signal, c.req.raw.signal]);
    // Sums need no order: a group's companies are walked one after another, not merged.
    const sources = view.members.map((company) =>
      parts.sources({
        view: { ...view, company, group: false, members: [company] },
        limit: WALK_PAGE_SIZE,
        signal,
        purpose: 'export',
      }),
    );
    const keep = keepUpTo(view.date_to, settings.PAYMENTS_TIME_ZONE);
    const counter = createSummaryCounter({
      timeZone: settings.PAYMENTS_TIME_ZONE,
      amountUnit: settings.PAYMENTS_AMOUNT_UNIT,
    });
    /** Walks the lists to their ends (or the row cap), reporting progress after every page. */
    const walk = async (progress: (counted: number) => Promise<void>) => {
      const finish = (complete: boolean) => {
        const summary = counter.result(complete);
        runs.remember(key, summary);
        return summary;
      };
      for (const source of sources) {
        let cursor: string | undefined;
        do {
          const result = await source.fetchPage(cursor);
          c.set('upstreamAttempts', c.get('upstreamAttempts') + result.attempts);
          if (!result.ok) return result.failure;
          for (const record of result.value.data) if (!keep || keep(record)) counter.add(record);
          if (counter.count >= settings.SUMMARY_MAX_ROWS) return finish(false);
          cursor = result.value.next_cursor ?? undefined;
          await progress(counter.count);
        } while (cursor !== undefined);
      }
      return finish(true);
    };
    if (!streaming) {
      const outcome = await walk(async () => {}).finally(run.finish);
      return 'count' in outcome ? c.json(outcome, 200) : upstreamProblem(c, outcome);
    }
    return streamSSE(c, async (stream) => {
      try {
        const outcome: Summary | UpstreamFailure =
          hit ??
          (await walk((counted) =>
            stream.writeSSE({ event: 'progress', data: JSON.stringify({ counted }) }),
          ));
        if ('count' in outcome) await stream.writeSSE({ event: 'summary', data: JSON.stringify(outcome) });
        else if (!outcome.aborted)
          await stream.writeSSE({
            event: 'error',
            data: JSON.stringify({ code: outcome.code, status: outcome.status, detail: outcome.detail }),
          });
      } finally {
        run.finish();
      }
    });
  });
}
