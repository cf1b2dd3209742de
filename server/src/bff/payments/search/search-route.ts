import {
  COMPANY_HEADER,
  findQuerySchema,
  type Payment,
  type Sort,
  searchQuerySchema,
} from '@payments/shared';
import { type Context, Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { Settings } from '../../../config/settings.ts';
import type { Leases } from '../../../shared-state/index.ts';
import type { UpstreamFailure } from '../../../upstream/index.ts';
import type { BffEnv } from '../../bff-env.ts';
import { validQuery } from '../../middleware/query-validator.ts';
import { problemFrom, problemResponse } from '../../problem-response.ts';
import { type SortedRow, sortOrder } from '../sort/sort-order.ts';
import { type SummaryRuns, summaryKey } from '../summary/summary-runs.ts';
import { type Checkpoints, positionsFor, REPLANS } from '../walk/checkpoints.ts';
import type { CompanyReader } from '../walk/company-reader.ts';
import type { CompanyScope } from '../walk/company-scope.ts';
import { type RowsEnd, viewRows } from '../walk/ordered-walk.ts';
import { idText } from '../walk/row-key.ts';
import { type PartsConsumer, walkInParts } from '../walk/segmented-walk.ts';
import { type View, viewOf } from '../walk/view.ts';
import { busyWalks, type WalkPlaces } from '../walk/walk-places.ts';
import { companyWalk, planWalk } from '../walk/walk-plan.ts';
import { paymentMatcher } from './payment-match.ts';

/** Matches one search sends at most: a search that finds more is too broad to read; it says so. */
const MAX_MATCHES = 5_000;
/** Sorted matches go out in events of this many rows, as a walk's pages would. */
const SENT_AT_ONCE = 100;

interface Found {
  rows: Payment[];
  companies: string[];
}

/**
 * Parts of a company's walk whose matches are held until the part is accepted (it joins the part before it
 * exactly), then sent, and every match it finds after sent as found.
 */
function matchingParts(
  company: string,
  matches: (record: Payment) => boolean,
  send: (found: Found) => void,
  onPage: (rows: number) => void,
  stopped: () => boolean,
): PartsConsumer {
  const pending = new Map<number, Payment[]>();
  const accepted = new Set<number>();
  const out = (rows: Payment[]) => {
    if (rows.length > 0) send({ rows, companies: rows.map(() => company) });
  };
  return {
    open(part) {
      pending.set(part, []);
      return {
        add(rows) {
          const found = rows.filter(matches);
          if (accepted.has(part)) out(found);
          else pending.get(part)?.push(...found);
        },
        end() {},
      };
    },
    accept(part) {
      accepted.add(part);
      out(pending.get(part) ?? []);
      pending.delete(part);
    },
    onPage,
    stopped,
  };
}

/**
 * `GET /api/payments/search` (a view's payments matching `q`) and `GET /api/payments/find` (one payment by its id,
 * in every company the user may see): the upstream cannot search, so the view is walked as a summary walks it —
 * every company at once, each split at remembered positions — and matches are streamed as `text/event-stream`
 * events as they are found: `start` (an estimate of the rows to read, and `as_of`: every match is read at or after
 * it), `match`, `progress` (rows read), `done`.
 */
export function searchRoutes(parts: {
  settings: Pick<
    Settings,
    'PAYMENTS_TIME_ZONE' | 'PAYMENTS_AMOUNT_UNIT' | 'PAYMENTS_LIST_ORDER' | 'WALKS_PER_USER'
  >;
  scope: CompanyScope;
  runs: SummaryRuns;
  read: CompanyReader;
  checkpoints: Checkpoints;
  walks: WalkPlaces;
  leases: Leases;
  now: () => number;
}) {
  const { settings } = parts;
  const timeZone = settings.PAYMENTS_TIME_ZONE;
  const order = settings.PAYMENTS_LIST_ORDER;
  const upstreamSort: Sort = order === 'created_at_desc' ? 'created_at:desc' : 'created_at:asc';

  /**
   * The matches of a view in the list's order: the ordered walk (companies merged by time, as the list is), its
   * matches sent page by page; with a sort, held (MAX_MATCHES at most) and sent sorted when the walk ends.
   */
  async function inOrder(
    view: View,
    matches: (record: Payment) => boolean,
    sort: Sort | undefined,
    how: {
      signal: AbortSignal;
      notBefore: number;
      send(found: Found): void;
      onPage(rows: number): void;
      stopped(): boolean;
    },
  ): Promise<UpstreamFailure | undefined> {
    const held: SortedRow[] = [];
    const walk = viewRows(view, {
      read: parts.read,
      checkpoints: parts.checkpoints,
      order,
      timeZone,
      signal: how.signal,
      notBefore: how.notBefore,
    });
    let end: RowsEnd | undefined;
    for (;;) {
      const next = await walk.next();
      if (next.done) {
        end = next.value;
        break;
      }
      how.onPage(next.value.length);
      const found = next.value.filter((row) => matches(row.record));
      if (sort === undefined && found.length > 0)
        how.send({ rows: found.map((row) => row.record), companies: found.map((row) => row.company) });
      else if (sort !== undefined) held.push(...found);
      if (how.stopped() || held.length >= MAX_MATCHES) {
        await walk.return({ ok: true, attempts: 0 });
        break;
      }
    }
    if (sort !== undefined) {
      held.sort(sortOrder(sort, { timeZone, amountUnit: settings.PAYMENTS_AMOUNT_UNIT }));
      for (let at = 0; at < held.length; at += SENT_AT_ONCE) {
        const part = held.slice(at, at + SENT_AT_ONCE);
        how.send({ rows: part.map((row) => row.record), companies: part.map((row) => row.company) });
      }
    }
    return end && !end.ok ? end.failure : undefined;
  }

  /**
   * Streams the matches of `view`: every company at once, until the walks end or `first` match is enough. A
   * search (`ordered`) sends its matches in the list's order (the companies' walks merged as the list merges
   * them), or, with a `sort`, all of them sorted once the walk ends; a find sends its one match as it comes.
   */
  async function stream(
    c: Context<BffEnv>,
    view: View,
    matches: (record: Payment) => boolean,
    first: boolean,
    ordered?: { sort: Sort | undefined },
  ) {
    const user = view.user.username;
    const claim = await parts.leases.takeOver(`search-run:${user}`);
    const place = await parts.walks.enter(user);
    if (!place) {
      claim.leave();
      return problemResponse(c, 'rate_limited', 429, busyWalks(settings.WALKS_PER_USER), {
        retryAfterSeconds: 5,
      });
    }
    const estimate = (await parts.runs.cached(summaryKey(view)))?.count ?? null;
    const stop = new AbortController();
    const signal = AbortSignal.any([c.req.raw.signal, claim.lost, stop.signal]);
    return streamSSE(c, async (sse) => {
      let writing = Promise.resolve();
      const write = (event: string, data: unknown) => {
        writing = writing.then(() => sse.writeSSE({ event, data: JSON.stringify(data) }));
      };
      let read = 0;
      let found = 0;
      const stopped = () => found >= (first ? 1 : MAX_MATCHES);
      const send = ({ rows, companies }: Found) => {
        const room = (first ? 1 : MAX_MATCHES) - found;
        if (room <= 0) return;
        found += Math.min(room, rows.length);
        write('match', { data: rows.slice(0, room), company_ids: companies.slice(0, room) });
        if (stopped()) stop.abort();
      };
      const onPage = (rows: number) => {
        read += rows;
        write('progress', { read });
      };
      try {
        // Matches are of the payments as the upstream lists them from now on: no page asked for before is taken,
        // and `as_of` says so (every match was read at or after it).
        const notBefore = performance.now();
        write('start', {
          estimate,
          companies: view.members.length,
          as_of: new Date(parts.now()).toISOString(),
        });
        if (ordered) {
          const failure = await inOrder(view, matches, ordered.sort, {
            signal,
            notBefore,
            send,
            onPage,
            stopped,
          });
          await writing;
          if (claim.lost.aborted) {
            const detail = 'a newer search of yours replaced this one';
            await sse.writeSSE({
              event: 'error',
              data: JSON.stringify({ code: 'search_superseded', status: 409, detail }),
            });
          } else if (failure && !failure.aborted && !stopped()) {
            const { code, status, detail } = failure;
            await sse.writeSSE({ event: 'error', data: JSON.stringify({ code, status, detail }) });
          } else
            await sse.writeSSE({
              event: 'done',
              data: JSON.stringify({ read, found, complete: !stopped() }),
            });
          return;
        }
        const company = async (id: string) => {
          for (let replan = 0; ; replan++) {
            const checkpoints = positionsFor(replan, parts.checkpoints);
            const plan = await planWalk(view, id, { checkpoints, order, timeZone });
            const walk = companyWalk(view, id, plan.filters, { timeZone, cls: 'walk', signal, notBefore });
            const consumer = matchingParts(id, matches, send, onPage, stopped);
            const outcome = await walkInParts(walk, plan, { read: parts.read, order, consumer });
            if (outcome.ok || !outcome.stale || replan >= REPLANS) return outcome;
          }
        };
        const outcomes = await Promise.all(view.members.map(company));
        const failed = outcomes.find(
          (o): o is { ok: false; failure: UpstreamFailure; attempts: number } => !o.ok,
        );
        await writing;
        if (claim.lost.aborted) {
          const detail = 'a newer search of yours replaced this one';
          await sse.writeSSE({
            event: 'error',
            data: JSON.stringify({ code: 'search_superseded', status: 409, detail }),
          });
        } else if (failed && !failed.failure.aborted && !stopped()) {
          const { code, status, detail } = failed.failure;
          await sse.writeSSE({ event: 'error', data: JSON.stringify({ code, status, detail }) });
        } else
          await sse.writeSSE({
            event: 'done',
            data: JSON.stringify({ read, found, complete: !stopped() || first }),
          });
      } finally {
        place.leave();
        claim.leave();
      }
    });
  }

  return new Hono<BffEnv>()
    .get('/search', validQuery(searchQuerySchema), async (c) => {
      const { q, sort, ...query } = c.req.valid('query');
      const chosen = viewOf(c.get('user'), c.req.header(COMPANY_HEADER), parts.scope, query, {
        amountUnit: settings.PAYMENTS_AMOUNT_UNIT,
      });
      if (!chosen.ok) return problemFrom(c, chosen);
      return stream(c, chosen.view, paymentMatcher(q, settings.PAYMENTS_AMOUNT_UNIT), false, {
        sort: sort === upstreamSort ? undefined : sort,
      });
    })
    .get('/find', validQuery(findQuerySchema), async (c) => {
      const { id } = c.req.valid('query');
      const user = c.get('user');
      // Every company the user may see, and no other: a link never walks further than the user's scope.
      const members = parts.scope.visible(user).map((company) => company.id);
      if (members.length === 0)
        return problemResponse(c, 'forbidden_company', 403, 'you have access to no company');
      const view: View = {
        user,
        company: members[0] as string,
        group: true,
        members,
        filters: {},
        date_to: undefined,
        currencies: undefined,
        statuses: undefined,
        amount: undefined,
      };
      // The id as the address writes it: a string id's text, a number's digits.
      const matches = (record: Payment) => {
        const text = idText(record.id);
        return text === id || text === JSON.stringify(id);
      };
      return stream(c, view, matches, true);
    });
}
