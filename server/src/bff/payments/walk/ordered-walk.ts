import { instantOf, type Payment } from '@payments/shared';
import type { ListOrder } from '../../../config/settings.ts';
import type { UpstreamFailure } from '../../../upstream/index.ts';
import { type Checkpoints, positionsFor, REPLANS } from './checkpoints.ts';
import type { CompanyReader } from './company-reader.ts';
import { direction } from './row-key.ts';
import { type PartSink, walkInParts } from './segmented-walk.ts';
import type { View } from './view.ts';
import { companyWalk, planWalk } from './walk-plan.ts';

/** Pages one part of a walk reads ahead of the reader before it waits. */
const READ_AHEAD_PAGES = 4;
/** How often a walk starts again when a remembered position it started from proved wrong. */

export interface ViewRow {
  record: Payment;
  company: string;
}

export interface OrderedWalkParts {
  read: CompanyReader;
  checkpoints: Checkpoints;
  order: ListOrder;
  timeZone: string;
  signal: AbortSignal;
  /** Counts the walk's upstream attempts as they happen (for the request's log line). */
  tally?: { attempts: number };
  /** Takes no upstream page asked for before this (`performance.now()`): the walk reads from then on. */
  notBefore?: number | undefined;
}

export type RowsEnd =
  | { ok: true; attempts: number }
  | { ok: false; failure: UpstreamFailure; attempts: number };

/** A bounded queue of pages between a part of a walk and the reader. */
function pageQueue(capacity: number, signal: AbortSignal) {
  const pages: Payment[][] = [];
  let ended = false;
  let wake = () => {};
  let space = () => {};
  const changed = () => {
    const w = wake;
    wake = () => {};
    w();
  };
  signal.addEventListener('abort', () => space(), { once: true });
  const sink: PartSink = {
    async add(rows) {
      if (rows.length === 0) return;
      while (pages.length >= capacity && !signal.aborted)
        await new Promise<void>((resolve) => (space = resolve));
      pages.push([...rows]);
      changed();
    },
    end() {
      ended = true;
      changed();
    },
  };
  async function* read() {
    for (;;) {
      const page = pages.shift();
      if (page) {
        space();
        yield page;
      } else if (ended) return;
      else await new Promise<void>((resolve) => (wake = resolve));
    }
  }
  return { sink, read };
}

/**
 * The rows of one company's walk of a view, in list order, page by page. Its parts (remembered positions inside
 * the range) are walked at once, each reading a few pages ahead; the reader takes them in order.
 */
async function* companyRows(
  view: View,
  company: string,
  parts: OrderedWalkParts,
): AsyncGenerator<Payment[], RowsEnd> {
  let attempts = 0;
  for (let replan = 0; ; replan++) {
    const plan = await planWalk(view, company, {
      ...parts,
      checkpoints: positionsFor(replan, parts.checkpoints),
    });
    const walk = companyWalk(view, company, plan.filters, { ...parts, cls: 'walk' });
    const queues = new Map<number, ReturnType<typeof pageQueue>>();
    const accepted: number[] = [];
    let settled = false;
    let wake = () => {};
    const outcome = walkInParts(walk, plan, {
      read: parts.read,
      order: parts.order,
      consumer: {
        open(part, signal) {
          const queue = pageQueue(READ_AHEAD_PAGES, signal);
          queues.set(part, queue);
          return queue.sink;
        },
        accept(part) {
          accepted.push(part);
          wake();
        },
      },
    }).finally(() => {
      settled = true;
      wake();
    });
    let taken = 0;
    for (;;) {
      const part = accepted[taken];
      if (part !== undefined) {
        taken += 1;
        yield* (queues.get(part) as ReturnType<typeof pageQueue>).read();
      } else if (settled) break;
      else await new Promise<void>((resolve) => (wake = resolve));
    }
    const end = await outcome;
    attempts += end.attempts;
    if (end.ok || !end.stale || replan >= REPLANS) return { ...end, attempts };
  }
}

/**
 * A view's rows in list order, page by page: one company's walk, or a group's companies walked at once and merged
 * by `created_at` (ties keep each company's own order and break across companies by their order in the group).
 */
export async function* viewRows(view: View, parts: OrderedWalkParts): AsyncGenerator<ViewRow[], RowsEnd> {
  const streams = view.members.map((company) => ({ company, rows: companyRows(view, company, parts) }));
  if (streams.length === 1) {
    const [only] = streams as [(typeof streams)[number]];
    for (;;) {
      const next = await only.rows.next();
      if (next.done) return next.value;
      yield next.value.map((record) => ({ record, company: only.company }));
    }
  }
  const { compare } = direction(parts.order);
  const at = (record: Payment) => instantOf(record.created_at, parts.timeZone);
  // Each company's current page, and where its reader stands in it; every company reads ahead at once.
  const heads = streams.map((stream) => ({ ...stream, page: [] as Payment[], index: 0, done: false }));
  const nextPages = heads.map((head) => head.rows.next());
  let attempts = 0;
  const refill = async (i: number): Promise<RowsEnd | undefined> => {
    const head = heads[i] as (typeof heads)[number];
    const next = await (nextPages[i] as Promise<IteratorResult<Payment[], RowsEnd>>);
    if (next.done) {
      head.done = true;
      attempts += next.value.attempts;
      return next.value.ok ? undefined : next.value;
    }
    head.page = next.value;
    head.index = 0;
    nextPages[i] = head.rows.next();
    return undefined;
  };
  try {
    for (;;) {
      for (const [i, head] of heads.entries())
        while (!head.done && head.index >= head.page.length) {
          const failure = await refill(i);
          if (failure) return { ...failure, attempts };
        }
      const batch: ViewRow[] = [];
      for (;;) {
        let first: (typeof heads)[number] | undefined;
        let firstAt: number | null = null;
        for (const head of heads) {
          const record = head.page[head.index];
          if (!record) continue;
          const time = at(record);
          if (!first || (time !== null && firstAt !== null && compare(time, firstAt) < 0)) {
            first = head;
            firstAt = time;
          }
        }
        // A company whose page is used up may hold the next row: the batch ends, and its next page is awaited.
        if (!first || heads.some((head) => !head.done && head.index >= head.page.length)) break;
        batch.push({ record: first.page[first.index] as Payment, company: first.company });
        first.index += 1;
      }
      if (batch.length > 0) yield batch;
      else if (heads.every((head) => head.done)) return { ok: true, attempts };
    }
  } finally {
    for (const head of heads) if (!head.done) void head.rows.return({ ok: true, attempts: 0 });
  }
}
