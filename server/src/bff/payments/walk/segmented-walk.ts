import type { Payment } from '@payments/shared';
import type { ListOrder } from '../../../config/settings.ts';
import type { UpstreamFailure } from '../../../upstream/index.ts';
import type { Checkpoint } from './checkpoints.ts';
import type { CompanyReader, CompanyWalk, Position } from './company-reader.ts';
import { direction, type RowKey, sameRow } from './row-key.ts';

/**
 * Where the rows of one part of a walk go. A part's rows count only once it is `accept`ed: when the part before it
 * has reached the row it starts with, and its own start proved right. `add` may wait (a consumer that reads in
 * order holds later parts back); `end` comes when the part stops, however it stops.
 */
export interface PartSink {
  add(rows: readonly Payment[]): void | Promise<void>;
  end(): void;
}

/** A part of a company's walk: from a position to just before the first row of a later part. */
interface Part {
  start: Position;
  /** The remembered position it starts at, where the part before it stops. */
  from?: Checkpoint | undefined;
}

type PartEnd =
  /** It reached the first row of the part `met` after it (the parts between were passed over). */
  | { ok: true; end: 'met'; met: number; stop: Position; attempts: number }
  /** The range or the list ended in it (or the consumer had enough). */
  | { ok: true; end: 'ended'; attempts: number }
  /** Its remembered start proved wrong (first row another, cursor refused): the part before walks through it. */
  | { ok: true; end: 'unverified'; attempts: number }
  | { ok: false; failure: UpstreamFailure; attempts: number };

export type WalkOutcome =
  | { ok: true; attempts: number }
  /** `stale`: the walk's own start proved wrong and was forgotten; planned again, it starts elsewhere. */
  | { ok: false; failure: UpstreamFailure; attempts: number; stale?: boolean };

export interface PartsConsumer {
  /** A sink for part `part`; `signal` aborts when the part is given up (passed over, or the walk stopped). */
  open(part: number, signal: AbortSignal): PartSink;
  /** Part `part` is the next in list order: its rows, those added so far and those to come, are the walk's. */
  accept(part: number): void;
  /** Called after every page of any part, for progress. */
  onPage?(rows: number): void;
  /** The consumer has enough (a row cap): parts stop, and every part's rows count, joined or not. */
  stopped?(): boolean;
}

/**
 * Whether a walk of cursors has come back to one it sent before, in constant memory (Brent's cycle detection):
 * a looping upstream would otherwise make an endless walk.
 */
function cursorLoopGuard(first: string | null): (next: string) => boolean {
  let checkpoint = first;
  let steps = 0;
  let power = 1;
  return (next) => {
    if (next === checkpoint) return true;
    steps += 1;
    if (steps === power) {
      checkpoint = next;
      power *= 2;
      steps = 0;
    }
    return false;
  };
}

const LOOPING: UpstreamFailure = {
  code: 'upstream_bad_response',
  status: 502,
  detail: 'the payments service sent a cursor it had sent before',
};

const checkpointPosition = (checkpoint: Checkpoint, limit: number): Position => ({
  cursor: checkpoint.cursor,
  skip: 0,
  limit,
  head: checkpoint.next,
  prev: checkpoint.boundary,
  checkpoint,
  issuedAt: checkpoint.issuedAt,
});

/**
 * A company's walk of a range, split at remembered positions into parts walked at once, joined exactly: each
 * part ends just before the row its successor's first page was remembered to begin with, and a part whose start
 * proves wrong (its first row another, its cursor refused) is walked through by the part before it instead. Parts
 * are accepted in list order, so a consumer counts every row once, whatever the upstream did meanwhile.
 */
export async function walkInParts(
  walk: CompanyWalk,
  plan: { start: Position; splits: readonly Checkpoint[] },
  parts: { read: CompanyReader; order: ListOrder; consumer: PartsConsumer },
): Promise<WalkOutcome> {
  const { compare } = direction(parts.order);
  const { consumer } = parts;
  const list: Part[] = [
    { start: plan.start },
    ...plan.splits.map((split) => ({ start: checkpointPosition(split, plan.start.limit), from: split })),
  ];
  /** Where the parts after `index` start: where the part `index` stops. */
  const startsAfter = (index: number) => list.slice(index + 1).map((part) => part.from as Checkpoint);

  /** Walks from `start` to the first of `ends` met; `sink` gets its rows; `started` once its first page is in. */
  async function walkPart(
    signal: AbortSignal,
    start: Position,
    ends: Checkpoint[],
    sink: PartSink,
    started: () => void,
  ): Promise<PartEnd> {
    const partWalk = { ...walk, signal: AbortSignal.any([walk.signal, signal]) };
    let position: Position | null = start;
    let attempts = 0;
    let end = 0;
    const loopsBack = cursorLoopGuard(start.cursor);
    try {
      while (position !== null) {
        if (consumer.stopped?.()) return { ok: true, end: 'ended', attempts };
        // The reader checks a remembered start (its first row, its cursor) and forgets one that proved wrong.
        const read = await parts.read(partWalk, position);
        attempts += read.attempts;
        if (!read.ok) return read.stale ? { ok: true, end: 'unverified', attempts } : { ...read, attempts };
        started();
        // Every raw row from the position on is checked against the ends, kept or not.
        const kept: Payment[] = [];
        let keptAt = 0;
        let met: { end: number; stop: Position } | undefined;
        for (let index = position.skip; index < read.keys.length && !met; index++) {
          const key = read.keys[index] as RowKey;
          while (
            end < ends.length &&
            key.at !== null &&
            compare(key.at, (ends[end] as Checkpoint).next.at) > 0
          )
            end++;
          if (end < ends.length && sameRow(key, (ends[end] as Checkpoint).next)) {
            met = {
              end,
              stop: {
                cursor: position.cursor,
                skip: index,
                limit: position.limit,
                head: key,
                issuedAt: position.issuedAt,
              },
            };
            break;
          }
          const row = read.rows[keptAt];
          if (row?.index === index) {
            kept.push(row.record);
            keptAt += 1;
          }
        }
        consumer.onPage?.(kept.length);
        await sink.add(kept);
        if (met) return { ok: true, end: 'met', met: met.end, stop: met.stop, attempts };
        if (read.ended) return { ok: true, end: 'ended', attempts };
        if (read.next?.cursor && loopsBack(read.next.cursor))
          return { ok: false, failure: LOOPING, attempts };
        position = read.next;
      }
      return { ok: true, end: 'ended', attempts };
    } finally {
      sink.end();
    }
  }

  /** A part under way: its end, and whether its start held (known at its first page). */
  const run = (index: number, start: Position) => {
    const stop = new AbortController();
    let started = (_held: boolean) => {};
    const held = new Promise<boolean>((resolve) => {
      started = resolve;
    });
    const result = walkPart(stop.signal, start, startsAfter(index), consumer.open(index, stop.signal), () =>
      started(true),
    ).then((end) => {
      started(end.ok && end.end !== 'unverified');
      return end;
    });
    return { stop, held, result };
  };
  const running = list.map((part, index) => run(index, part.start));
  const giveUp = (from: number, to = running.length) => {
    for (const part of running.slice(from, to)) part.stop.abort();
  };

  let attempts = 0;
  let index = 0;
  let current = running[0] as ReturnType<typeof run>;
  if (!(await current.held)) {
    giveUp(1);
    const end = await current.result;
    attempts += end.attempts;
    if (!end.ok) return end;
    const failure = {
      code: 'cursor_mismatch',
      status: 400,
      detail: 'a remembered position no longer holds',
    } as const;
    return { ok: false, failure, attempts, stale: true };
  }
  for (;;) {
    consumer.accept(index);
    const end = await current.result;
    attempts += end.attempts;
    if (!end.ok) {
      giveUp(index + 1);
      return { ...end, attempts };
    }
    if (end.end !== 'met') {
      giveUp(index + 1);
      // With enough counted, every part's rows count, joined or not.
      if (consumer.stopped?.()) for (const other of running.keys()) if (other > index) consumer.accept(other);
      return { ok: true, attempts };
    }
    const next = index + 1 + end.met;
    giveUp(index + 1, next);
    const following = running[next] as ReturnType<typeof run>;
    if (await following.held) current = following;
    else {
      // The part after this one started wrong: this one walks on, from where it stopped, through that part.
      following.stop.abort();
      attempts += (await following.result).attempts;
      current = run(next, end.stop);
      running[next] = current;
    }
    index = next;
  }
}
