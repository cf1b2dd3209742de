import type { Metrics } from '../../../runtime/metrics.ts';
import type { SharedState } from '../../../shared-state/index.ts';
import type { CursorLifetime } from './cursor-lifetime.ts';
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
  /** When the upstream issued the cursor (the BFF's clock): past the upstream's cursor lifetime it is not tried. */
  issuedAt: number;
}

/**
 * How long a position is remembered when the upstream's cursor lifetime is not known; a walk verifies it before
 * use, so an old one costs one request at most.
 */
const CHECKPOINT_TTL_MS = 24 * 3_600_000;
/** Positions kept per company and filters: a page each, for 500,000 rows at 100 a page. */
const MAX_CHECKPOINTS = 5_000;

const keyFor = (company: string, filters: UpstreamFilters) =>
  `checkpoints:${JSON.stringify([company, filters.status ?? null, filters.date_from ?? null])}`;

const encode = (c: Checkpoint) =>
  JSON.stringify([c.boundary.id, c.cursor, c.next.at, c.next.id, c.boundary.at, c.issuedAt]);

/** A member as remembered; one of an older shape (without its cursor's age) is none. */
function decode(member: string): Checkpoint | undefined {
  try {
    const [id, cursor, nextAt, nextId, at, issuedAt] = JSON.parse(member) as unknown[];
    if (typeof id !== 'string' || typeof cursor !== 'string' || typeof nextAt !== 'number') return undefined;
    if (typeof nextId !== 'string' || typeof at !== 'number' || typeof issuedAt !== 'number')
      return undefined;
    return { boundary: { at, id }, cursor, next: { at: nextAt, id: nextId }, issuedAt };
  } catch {
    return undefined;
  }
}

/** Members read at a time when looking for usable positions among ones past their cursors' lifetime. */
const SCAN = 64;

/**
 * Positions remembered per company and upstream filters, in the shared state, so that a question reaching into
 * the past starts near it instead of at page one, and a long range can be split into parts walked at once.
 */
export function createCheckpoints(
  state: SharedState,
  options: { metrics?: Metrics | undefined; lifetime?: CursorLifetime | undefined } = {},
) {
  const { metrics, lifetime } = options;
  /**
   * The usable positions with boundaries in [min, max], in score order (reversed with `reverse`); those whose
   * cursors outlived the upstream's lifetime, or of an older shape, are forgotten on the way.
   */
  const usable = async (key: string, min: number, max: number, reverse = false, wanted = Infinity) => {
    const kept: Checkpoint[] = [];
    const stale: string[] = [];
    for (let offset = 0; kept.length < wanted; offset += SCAN) {
      const found = await state.rangeScored(key, { min, max, reverse, offset, limit: SCAN });
      for (const member of found) {
        const checkpoint = decode(member);
        if (checkpoint && (lifetime?.usable(checkpoint.issuedAt) ?? true)) kept.push(checkpoint);
        else stale.push(member);
      }
      if (found.length < SCAN) break;
    }
    for (const member of stale) state.removeScored(key, member).catch(() => undefined);
    return kept.slice(0, wanted);
  };
  /** Positions are kept as long as their cursors live, when that is known. */
  const keepFor = () => Math.min(CHECKPOINT_TTL_MS, lifetime?.knownMs() ?? CHECKPOINT_TTL_MS);
  return {
    /** Remembers a position; best effort (a walk never fails for it). */
    record(company: string, filters: UpstreamFilters, checkpoint: Checkpoint): void {
      if (!(lifetime?.usable(checkpoint.issuedAt) ?? true)) return;
      state
        .addScored(keyFor(company, filters), encode(checkpoint), checkpoint.boundary.at, {
          ttlMs: keepFor(),
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
        ? await usable(key, bound + 1, Number.MAX_SAFE_INTEGER, false, 1).catch(() => [])
        : await usable(key, -Number.MAX_SAFE_INTEGER, bound - 1, true, 1).catch(() => []);
      metrics?.checkpoints.inc({ result: found ? 'hit' : 'miss' });
      return found;
    },
    /**
     * How many positions are remembered with boundaries in [min, max]: about the pages between (a plan's estimate,
     * counted by the store without reading them; ones past their cursors' lifetime are forgotten as walks meet them).
     */
    count: (company: string, filters: UpstreamFilters, min: number, max: number) =>
      state.countScored(keyFor(company, filters), min, max).catch(() => 0),
    /** Up to `parts - 1` usable positions inside [min, max], evenly spread: where a long walk is split. */
    async splits(company: string, filters: UpstreamFilters, min: number, max: number, parts: number) {
      const all = await usable(keyFor(company, filters), min, max).catch(() => []);
      const wanted = Math.min(parts - 1, all.length);
      const found: Checkpoint[] = [];
      for (let i = 1; i <= wanted; i++)
        found.push(all[Math.floor((i * all.length) / (wanted + 1))] as Checkpoint);
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
