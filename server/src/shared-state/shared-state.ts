/**
 * What the BFF's replicas share: session records, sign-in throttle counters, download and summary slots, the
 * summary cache. Two implementations: in-process (`createEmbeddedState`, one replica) and Redis
 * (`createRedisState`, any number). Every operation is atomic on its key. Times to live are in milliseconds.
 */
export interface SharedState {
  get(key: string): Promise<string | null>;
  /** Reads the key and restarts its time to live, in one step: a session's idle timeout. */
  getAndTouch(key: string, ttlMs: number): Promise<string | null>;
  set(key: string, value: string, ttlMs: number): Promise<void>;
  /** Sets the key only if it is absent; whether it did. */
  setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean>;
  delete(...keys: string[]): Promise<void>;
  /**
   * Adds `by` to a counter that starts at 0 and lives `ttlMs` from its creation, or from this increment with
   * `{ slide: true }`; the new value.
   */
  increment(key: string, by: number, ttlMs: number, options?: { slide?: boolean }): Promise<number>;
  /** Milliseconds the key has left; 0 when absent. */
  timeLeft(key: string): Promise<number>;
  /** A set of members that lives `ttlMs` from its last addition (a user's session ids). */
  addMember(key: string, member: string, ttlMs: number): Promise<void>;
  removeMember(key: string, member: string): Promise<void>;
  members(key: string): Promise<string[]>;
  /**
   * Takes one of `limit` places under `key` for `holder`, for `leaseMs` unless renewed (so a replica that dies
   * holding places frees them); whether it got one.
   */
  acquire(key: string, holder: string, limit: number, leaseMs: number): Promise<boolean>;
  /** Extends `holder`'s place; false when it was lost (expired). */
  renew(key: string, holder: string, leaseMs: number): Promise<boolean>;
  release(key: string, holder: string): Promise<void>;
  /**
   * A turn in a rate of one per `intervalMs` shared by every replica (the generic cell rate algorithm): reserves
   * the next free turn and says how many milliseconds the caller waits for it.
   */
  reserveTurn(key: string, intervalMs: number): Promise<number>;
  /** Moves every turn not yet reserved under `key` at least `ms` from now: a pause everyone observes. */
  holdTurns(key: string, ms: number): Promise<void>;
  /**
   * Adds `member` to a set ordered by `score`, which lives `ttlMs` from its last addition and keeps at most `max`
   * members (the lowest scores leave first).
   */
  addScored(
    key: string,
    member: string,
    score: number,
    options: { ttlMs: number; max: number },
  ): Promise<void>;
  /** Members whose score lies in [min, max], lowest first (highest first with `reverse`), from `offset`, at most `limit`. */
  rangeScored(key: string, range: ScoreRange): Promise<string[]>;
  countScored(key: string, min: number, max: number): Promise<number>;
  removeScored(key: string, member: string): Promise<void>;
  /**
   * A place in line under `key` for `holder`, one place per holder, kept in the order places were taken: a
   * turn comes every `spacingMs`, and goes to the first in line. A holder keeps its place by asking again within
   * `keepMs` (one that stops asking drops out, and those behind move up). The milliseconds until the holder's
   * turn, as it looks now; 0 when it has come, and then the place is used (asking again queues again). With
   * `maxPlaces`, a holder not in line finds no place when that many are taken: -1, and it is not in line.
   */
  takeTurn(
    key: string,
    holder: string,
    spacingMs: number,
    keepMs: number,
    maxPlaces?: number,
  ): Promise<number>;
  /**
   * Keeps `value` under `id` in the pool `pool` for `ttlMs` from its last use, as one of at most `perOwner` entries
   * of `owner` (that owner's least recently used leave first), in a pool of at most `maxBytes`: beyond it, the least
   * recently used entry of the owners holding the most leaves first (so one owner's flood costs others nothing
   * while they hold fewer), never the entry just kept. Keeping an id that is kept refreshes it.
   */
  keepPooled(pool: string, owner: string, id: string, value: string, limits: PoolLimits): Promise<void>;
  /** The value kept under `id` in `pool`, its time to live restarted; null when it is gone. */
  readPooled(pool: string, id: string, ttlMs: number): Promise<string | null>;
  /** How many entries `pool` holds, and their bytes (values and ids), counting only live ones. */
  poolSize(pool: string): Promise<{ entries: number; bytes: number }>;
  /** Throws SharedStateUnavailable when the store cannot be reached. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** The store could not be asked: a temporary failure, answered 503 `shared_state_unavailable`. */
export class SharedStateUnavailable extends Error {
  override name = 'SharedStateUnavailable';
}

export interface ScoreRange {
  min: number;
  max: number;
  reverse?: boolean;
  offset?: number;
  limit: number;
}

export interface PoolLimits {
  ttlMs: number;
  perOwner: number;
  maxBytes: number;
}
