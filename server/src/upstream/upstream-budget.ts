import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { SharedState } from '../shared-state/index.ts';

/**
 * Who waits first for the upstream: a page a person is looking at, then walks (summaries, exports, searches,
 * skipping to a date_to), then background work.
 */
const REQUEST_CLASSES = ['page', 'walk', 'background'] as const;
export type RequestClass = (typeof REQUEST_CLASSES)[number];

/** How one attempt ended, as far as the budget cares: a refusal for rate slows everyone. */
export type AttemptEnd = 'ok' | 'rate_limited' | 'failed';

export interface BudgetClock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export interface UpstreamBudgetOptions {
  /** Where the rate and the places in flight are counted, so that every replica spends one budget. */
  state: SharedState;
  /** Requests per second the whole deployment may send; unset: no bound but the upstream's own 429s. */
  maxRps?: number | undefined;
  /** Requests in flight at once across the deployment. */
  maxConcurrency: number;
  clock?: BudgetClock;
  /** Receives the wait of every attempt that got its turn, by class (for the metrics). */
  onWait?(cls: RequestClass, waitedMs: number): void;
}

interface Waiter {
  cls: RequestClass;
  user: string;
  since: number;
  signal?: AbortSignal | undefined;
  resolve(end: (how: AttemptEnd) => void): void;
  reject(reason: unknown): void;
}

type Granted = (how: AttemptEnd) => void;

const RATE_KEY = 'upstream:turns';
const FLIGHT_KEY = 'upstream:in-flight';
/** A place in flight is held at most this long (a replica that died mid-request frees it). */
const FLIGHT_LEASE_MS = 60_000;
/** How often a full deployment asks again for a place in flight. */
const FLIGHT_RETRY_MS = 20;
/** A 429 without Retry-After pauses everyone this long. */
const DEFAULT_PAUSE_MS = 1_000;
/** The slowest a run of 429s makes the budget: this many times its interval. */
const MAX_SLOWDOWN = 8;
/** The fewest places one user's walks may hold: one in flight while the next is being asked. */
const MIN_SHARE = 2;
/** The weight of the newest attempt in the latency seen: a few slow answers move it, one does not swing it. */
const LATENCY_WEIGHT = 0.2;

const realClock: BudgetClock = {
  now: Date.now,
  sleep: (ms, signal) => sleep(ms, undefined, signal ? { signal } : {}),
};

/**
 * One budget for everything the deployment asks of the upstream. Attempts wait in classes (a person's page first),
 * and within a class users take turns, so one user's three walks get one user's share; one user's walks hold at
 * most the places that rate and latency call for (see `share`), so the upstream is never busy with one user alone.
 * Turns are spaced by the rate, reserved in the shared state (one turn reserved at a time per replica, so a page
 * that arrives waits behind at most the one walk request already reserved). A 429 pauses every replica for its
 * Retry-After and halves this replica's rate, which recovers by itself with each success.
 */
export function createUpstreamBudget(options: UpstreamBudgetOptions) {
  const { state, maxConcurrency } = options;
  const clock = options.clock ?? realClock;
  const interval = options.maxRps === undefined ? 0 : 1000 / options.maxRps;
  /** How long an attempt takes from its turn to its end, as seen lately (ms); unknown until one has ended. */
  let latencyMs: number | undefined;
  const queues = new Map<RequestClass, Map<string, Waiter[]>>(REQUEST_CLASSES.map((cls) => [cls, new Map()]));
  let slowdown = 1;
  let pumping = false;
  let inFlight = 0;
  let closed = false;

  /** When each user last had a turn, per class: the user who waited longest since goes next. */
  const lastTurn = new Map<string, number>();
  let turns = 0;
  /** The next waiter: the first class with any, in it the user whose last turn is the oldest. */
  const next = (): Waiter | undefined => {
    const perUser = share();
    for (const cls of REQUEST_CLASSES) {
      const users = queues.get(cls) as Map<string, Waiter[]>;
      let chosen: string | undefined;
      for (const [user, waiting] of users) {
        while (waiting[0]?.signal?.aborted) waiting.shift();
        if (waiting.length === 0) users.delete(user);
        else if (!eligible(cls, user, perUser)) continue;
        else if (
          chosen === undefined ||
          (lastTurn.get(`${cls}\n${user}`) ?? 0) < (lastTurn.get(`${cls}\n${chosen}`) ?? 0)
        )
          chosen = user;
      }
      if (chosen === undefined) continue;
      const waiting = users.get(chosen) as Waiter[];
      const waiter = waiting.shift() as Waiter;
      if (waiting.length === 0) users.delete(chosen);
      lastTurn.set(`${cls}\n${chosen}`, ++turns);
      return waiter;
    }
    return undefined;
  };
  /** In flight per user, of walks and background work: one user's walks get one user's share of the places. */
  const userFlight = new Map<string, number>();
  /**
   * The places one user's walks may hold. With a rate, what that rate keeps busy at the latency seen (Little's
   * law: rate × latency; more would only wait for turns, and holds places when the upstream slows); until an
   * attempt has ended, the least. Without a rate nothing says what one user can use, so the places are split
   * between the users walking and one more (a newcomer, and pages, find room). Never above that split, never
   * under MIN_SHARE.
   */
  const share = (): number => {
    const walkers = new Set(userFlight.keys());
    for (const cls of ['walk', 'background'] as const)
      for (const user of (queues.get(cls) as Map<string, Waiter[]>).keys()) walkers.add(user);
    const split = Math.floor(maxConcurrency / (walkers.size + 1));
    const used =
      interval === 0
        ? split
        : latencyMs === undefined
          ? MIN_SHARE
          : Math.ceil(latencyMs / (interval * slowdown));
    return Math.max(MIN_SHARE, Math.min(used, split));
  };
  const eligible = (cls: RequestClass, user: string, perUser: number) =>
    cls === 'page' || (userFlight.get(user) ?? 0) < perUser;
  const anyWaiting = () => {
    const perUser = share();
    return [...queues].some(([cls, users]) => [...users.keys()].some((user) => eligible(cls, user, perUser)));
  };

  const takePlace = async (holder: string) => {
    while (!(await state.acquire(FLIGHT_KEY, holder, maxConcurrency, FLIGHT_LEASE_MS)))
      await clock.sleep(FLIGHT_RETRY_MS);
  };

  const grant = (waiter: Waiter, holder: string) => {
    inFlight += 1;
    const counted = waiter.cls !== 'page';
    if (counted) userFlight.set(waiter.user, (userFlight.get(waiter.user) ?? 0) + 1);
    options.onWait?.(waiter.cls, clock.now() - waiter.since);
    const grantedAt = clock.now();
    let ended = false;
    waiter.resolve((how) => {
      if (ended) return;
      ended = true;
      inFlight -= 1;
      if (how === 'ok') {
        const took = clock.now() - grantedAt;
        latencyMs = latencyMs === undefined ? took : latencyMs + LATENCY_WEIGHT * (took - latencyMs);
      }
      if (counted) {
        const left = (userFlight.get(waiter.user) ?? 1) - 1;
        if (left === 0) userFlight.delete(waiter.user);
        else userFlight.set(waiter.user, left);
      }
      if (how === 'ok') slowdown = Math.max(1, slowdown * 0.97);
      state.release(FLIGHT_KEY, holder).catch(() => undefined);
      void pump();
    });
  };

  async function pump(): Promise<void> {
    if (pumping || closed) return;
    pumping = true;
    try {
      while (inFlight < maxConcurrency && anyWaiting()) {
        // The turn is reserved and waited for first, and given then to whoever comes first: a page that arrives
        // during the wait takes it.
        const holder = randomUUID();
        try {
          const wait = await state.reserveTurn(RATE_KEY, interval * slowdown);
          if (wait > 0) await clock.sleep(wait);
          await takePlace(holder);
        } catch (error) {
          // The store failed: this attempt cannot be counted, so it is refused rather than sent unbudgeted.
          next()?.reject(error);
          continue;
        }
        const waiter = next();
        if (waiter) grant(waiter, holder);
        else state.release(FLIGHT_KEY, holder).catch(() => undefined);
      }
    } finally {
      pumping = false;
    }
  }

  return {
    /**
     * Waits for an attempt's turn; resolves with the function to call once the attempt has ended. Rejects with
     * the signal's reason when the caller goes away while waiting, or when the shared state cannot be asked.
     */
    take(request: { cls: RequestClass; user: string; signal?: AbortSignal | undefined }) {
      const { signal } = request;
      return new Promise<Granted>((resolve, reject) => {
        if (signal?.aborted) return reject(signal.reason);
        const users = queues.get(request.cls) as Map<string, Waiter[]>;
        const waiting = users.get(request.user) ?? [];
        users.set(request.user, waiting);
        const leave = () => reject(signal?.reason);
        const settle =
          <T>(then: (value: T) => void) =>
          (value: T) => {
            signal?.removeEventListener('abort', leave);
            then(value);
          };
        waiting.push({ ...request, since: clock.now(), resolve: settle(resolve), reject: settle(reject) });
        signal?.addEventListener('abort', leave, { once: true });
        void pump();
      });
    },
    /** The upstream refused an attempt for rate: every replica pauses, this one halves its rate for a while. */
    async refused(retryAfterMs: number | undefined): Promise<void> {
      slowdown = Math.min(MAX_SLOWDOWN, slowdown * 2);
      await state.holdTurns(RATE_KEY, retryAfterMs ?? DEFAULT_PAUSE_MS).catch(() => undefined);
    },
    /** Attempts waiting, by class (for the metrics and tests). */
    waiting(): Record<RequestClass, number> {
      const counts = { page: 0, walk: 0, background: 0 };
      for (const [cls, users] of queues) for (const waiting of users.values()) counts[cls] += waiting.length;
      return counts;
    },
    close() {
      closed = true;
    },
  };
}

export type UpstreamBudget = ReturnType<typeof createUpstreamBudget>;
