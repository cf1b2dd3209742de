import type { Metrics } from '../../../runtime/metrics.ts';
import type { SharedState } from '../../../shared-state/index.ts';
import type { RowKey } from './row-key.ts';

/** The upstream filters a company's walk sends; its cursors are good for exactly these. */
export interface UpstreamFilters {
  status?: string | undefined;
  date_from?: string | undefined;
}

/**
 * A remembered position in one company's list under some upstream filters: the last row of a page (`boundary`),
 * the cursor after it, and the first row that cursor led to (`next`). Rows are named by instant and id only:
 * no amount, name or other field is kept.
 */
export interface Checkpoint {
  boundary: RowKey & { at: number };
  cursor: string;
  next: RowKey & { at: number };
}

/** How long a position is remembered; a walk verifies it before use, so an old one costs one request at most. */
const CHECKPOINT_TTL_MS = 24 * 3_600_000;
/** Positions kept per company and filters: a page each, for 500,000 rows at 100 a page. */
const MAX_CHECKPOINTS = 5_000;

const keyFor = (company: string, filters: UpstreamFilters) =>
  `checkpoints:${JSON.stringify([company, filters.status ?? null, filters.date_from ?? null])}`;

const encode = (c: Checkpoint) => JSON.stringify([c.boundary.id, c.cursor, c.next.at, c.next.id]);

function decode(member: string, at: number): Checkpoint | undefined {
  try {
    const [id, cursor, nextAt, nextId] = JSON.parse(member) as unknown[];
    if (typeof id !== 'string' || typeof cursor !== 'string' || typeof nextAt !== 'number') return undefined;
    if (typeof nextId !== 'string') return undefined;
    return { boundary: { at, id }, cursor, next: { at: nextAt, id: nextId } };
  } catch {
    return undefined;
  }
}

/**
 * Positions remembered per company and upstream filters, in the shared state, so that a question reaching into
 * the past starts near it instead of at page one, and a long range can be split into parts walked at once.
 */
export function createCheckpoints(state: SharedState, metrics?: Metrics) {
  const members = async (key: string, min: number, max: number, reverse: boolean, offset = 0, limit = 1) => {
    // The score is the boundary's instant; the member does not carry it.
    const found = await state.rangeScored(key, { min, max, reverse, offset, limit });
    const withScores: Checkpoint[] = [];
    for (const member of found) {
      const [id] = JSON.parse(member) as [string];
      // Scores are integers (milliseconds); the member is looked up again for its score.
      const at = await scoreOf(key, member, min, max);
      const checkpoint = at === undefined ? undefined : decode(member, at);
      if (checkpoint && checkpoint.boundary.id === id) withScores.push(checkpoint);
    }
    return withScores;
  };
  /** The score of `member`, searched in [min, max] by halving: the store answers members, not scores. */
  const scoreOf = async (key: string, member: string, min: number, max: number) => {
    let low = min;
    let high = max;
    while (low < high) {
      const middle = Math.floor((low + high) / 2);
      const below = await state.rangeScored(key, { min: low, max: middle, limit: 10_000 });
      if (below.includes(member)) high = middle;
      else low = middle + 1;
    }
    return (await state.rangeScored(key, { min: low, max: low, limit: 10_000 })).includes(member)
      ? low
      : undefined;
  };
  return {
    /** Remembers a position; best effort (a walk never fails for it). */
    record(company: string, filters: UpstreamFilters, checkpoint: Checkpoint): void {
      state
        .addScored(keyFor(company, filters), encode(checkpoint), checkpoint.boundary.at, {
          ttlMs: CHECKPOINT_TTL_MS,
          max: MAX_CHECKPOINTS,
        })
        .catch(() => undefined);
    },
    /**
     * The remembered position nearest before instant `bound` in list order: with newest first, the one whose
     * boundary is the oldest still newer than `bound` (`newerThan`), else the newest still older than it.
     */
    async nearest(company: string, filters: UpstreamFilters, bound: number, newerThan: boolean) {
      const key = keyFor(company, filters);
      const [found] = newerThan
        ? await members(key, bound + 1, Number.MAX_SAFE_INTEGER, false)
        : await members(key, -Number.MAX_SAFE_INTEGER, bound - 1, true);
      metrics?.checkpoints.inc({ result: found ? 'hit' : 'miss' });
      return found;
    },
    /** How many positions are remembered with boundaries in [min, max]: about the pages between. */
    count: (company: string, filters: UpstreamFilters, min: number, max: number) =>
      state.countScored(keyFor(company, filters), min, max).catch(() => 0),
    /** Up to `parts - 1` positions inside [min, max], evenly spread: where a long walk is split. */
    async splits(company: string, filters: UpstreamFilters, min: number, max: number, parts: number) {
      const key = keyFor(company, filters);
      const total = await state.countScored(key, min, max).catch(() => 0);
      const wanted = Math.min(parts - 1, total);
      const found: Checkpoint[] = [];
      for (let i = 1; i <= wanted; i++) {
        const offset = Math.floor((i * total) / (wanted + 1));
        found.push(...(await members(key, min, max, false, offset, 1).catch(() => [])));
      }
      return found;
    },
    /** Forgets a position that proved wrong (its cursor refused, or its next row another). */
    drop(company: string, filters: UpstreamFilters, checkpoint: Checkpoint): void {
      metrics?.checkpoints.inc({ result: 'dropped' });
      state.removeScored(keyFor(company, filters), encode(checkpoint)).catch(() => undefined);
    },
  };
}

export type Checkpoints = ReturnType<typeof createCheckpoints>;

/** What a walk's plan asks of the remembered positions. */
export type RememberedPositions = Pick<Checkpoints, 'nearest' | 'count' | 'splits'>;

/** How many times a walk is planned again after a remembered position proved wrong, each time without it. */
export const REPLANS = 3;

const NOTHING_REMEMBERED: RememberedPositions = {
  nearest: async () => undefined,
  count: async () => 0,
  splits: async () => [],
};

/**
 * The positions plan number `replan` of a walk may use: the remembered ones, until REPLANS of them have proved
 * wrong (an upstream may refuse any cursor, and every one remembered may point elsewhere by now); then none, and
 * the walk starts at the top, which always holds.
 */
export function positionsFor(replan: number, checkpoints: Checkpoints): RememberedPositions {
  return replan < REPLANS ? checkpoints : NOTHING_REMEMBERED;
}
