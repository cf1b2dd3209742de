import { canonicalUsername } from './users.ts';

export interface Throttle {
  /**
   * Starts a sign-in attempt. Refused while any key is locked out (`retryAfterSeconds` is when the last of them
   * unlocks), or while its failures in the window and the attempts still being checked would reach the limit:
   * otherwise parallel guesses would all pass before the first failure was counted. An allowed attempt counts
   * as in progress under every key until `fail` or `succeed` ends it.
   */
  check(keys: string[]): ThrottleVerdict;
  /** Ends an attempt as failed: counts one failed sign-in against every key. */
  fail(keys: string[]): void;
  /** Ends an attempt as passed, and forgets the failures (and lockout history) of the keys in `forget`. */
  succeed(keys: string[], forget?: string[]): void;
}

export type ThrottleVerdict =
  | { allowed: true; retryAfterSeconds: 0 }
  /** `busy`: the attempts in progress alone fill the budget; they end within a second or so. */
  | { allowed: false; retryAfterSeconds: number; reason: 'locked' | 'busy' };

export interface ThrottleOptions {
  /** Failures within `windowMs` that trigger a lockout. Default 5. */
  maxFailures?: number;
  /** How long failures are remembered. Default 15 minutes. */
  windowMs?: number;
  /** The first lockout; each further one for the same key doubles, up to 16×. Default 15 minutes. */
  lockoutMs?: number;
  now?: () => number;
  /** At most this many keys are tracked; the least recently touched unlocked ones go first. Default 10 000. */
  maxEntries?: number;
}

interface Entry {
  /** Times (ms) of the failures within the window, oldest first. */
  failures: number[];
  lockedUntil: number;
  /** Lockouts so far; decides the next lockout's length. */
  lockouts: number;
  /** Attempts allowed by check() and not yet ended. */
  inProgress: number;
  /** After this time the entry holds nothing worth keeping. */
  expiresAt: number;
}

const MAX_LOCKOUT_DOUBLINGS = 4;

/** The keys a sign-in attempt is throttled under: the (canonical) username and the client address. */
export function signInThrottleKeys(username: string, clientAddress: string): string[] {
  return [`user:${canonicalUsername(username)}`, `address:${clientAddress}`];
}

/**
 * Failed sign-in throttling. The state is in memory, per process: with N replicas an attacker gets up to N
 * times the budget, which still bounds guessing; a shared store would be needed for an exact global count.
 */
export function createThrottle(options: ThrottleOptions = {}): Throttle {
  const maxFailures = options.maxFailures ?? 5;
  const windowMs = options.windowMs ?? 15 * 60_000;
  const lockoutMs = options.lockoutMs ?? 15 * 60_000;
  const maxEntries = options.maxEntries ?? 10_000;
  const now = options.now ?? Date.now;
  // Map order is insertion order; re-inserting on every touch makes the first entry the least recently used.
  const entries = new Map<string, Entry>();

  function touch(key: string, entry: Entry): void {
    entries.delete(key);
    if (entries.size >= maxEntries) {
      const time = now();
      for (const [other, value] of entries) if (value.expiresAt <= time) entries.delete(other);
      while (entries.size >= maxEntries) {
        // Locked keys go last: otherwise a flood of fresh keys would lift a lockout.
        let victim: string | undefined;
        for (const [other, value] of entries) {
          if (value.lockedUntil <= time) {
            victim = other;
            break;
          }
        }
        victim ??= entries.keys().next().value;
        if (victim === undefined) break;
        entries.delete(victim);
      }
    }
    entries.set(key, entry);
  }

  const fresh = (): Entry => ({ failures: [], lockedUntil: 0, lockouts: 0, inProgress: 0, expiresAt: 0 });

  /** An entry past its expiry keeps nothing of its failures and lockout history. */
  function forgiveIfExpired(entry: Entry, time: number): void {
    if (entry.expiresAt > time) return;
    entry.failures = [];
    entry.lockouts = 0;
  }

  /** The failures of an entry that still count: none once it has expired, else those within the window. */
  function recentFailures(entry: Entry, time: number): number[] {
    return entry.expiresAt > time ? entry.failures.filter((at) => at > time - windowMs) : [];
  }

  /** Ends one attempt under `key`, if one is in progress. */
  function settle(key: string): void {
    const entry = entries.get(key);
    if (entry !== undefined && entry.inProgress > 0) entry.inProgress -= 1;
  }

  return {
    check(keys) {
      const time = now();
      let lockedUntil = 0;
      let busy = false;
      for (const key of keys) {
        const entry = entries.get(key);
        if (entry === undefined) continue;
        if (entry.lockedUntil > time) lockedUntil = Math.max(lockedUntil, entry.lockedUntil);
        if (recentFailures(entry, time).length + entry.inProgress >= maxFailures) busy = true;
      }
      if (lockedUntil !== 0)
        return {
          allowed: false,
          retryAfterSeconds: Math.ceil((lockedUntil - time) / 1000),
          reason: 'locked',
        };
      // The attempts in progress end within a second or so (one password hash each).
      if (busy) return { allowed: false, retryAfterSeconds: 1, reason: 'busy' };
      for (const key of keys) {
        const entry = entries.get(key) ?? fresh();
        // A live entry keeps its expiry: attempts that do not fail must not keep a lockout history alive.
        if (entry.expiresAt <= time) {
          forgiveIfExpired(entry, time);
          entry.expiresAt = time + windowMs;
        }
        entry.inProgress += 1;
        touch(key, entry);
      }
      return { allowed: true, retryAfterSeconds: 0 };
    },

    fail(keys) {
      const time = now();
      for (const key of keys) {
        settle(key);
        const entry = entries.get(key) ?? fresh();
        forgiveIfExpired(entry, time);
        // Attempts refused by check() never get here; a failure reported during a lockout does not extend it.
        if (entry.lockedUntil <= time) {
          entry.failures = recentFailures(entry, time);
          entry.failures.push(time);
          if (entry.failures.length >= maxFailures) {
            entry.lockedUntil = time + lockoutMs * 2 ** Math.min(entry.lockouts, MAX_LOCKOUT_DOUBLINGS);
            entry.lockouts += 1;
            entry.failures = [];
          }
        }
        // Lockout history is kept for one window after the last lockout ends, then forgiven.
        entry.expiresAt = Math.max(time, entry.lockedUntil) + windowMs;
        touch(key, entry);
      }
    },

    succeed(keys, forget = keys) {
      for (const key of keys) settle(key);
      for (const key of forget) {
        const entry = entries.get(key);
        // Attempts still in progress under the key stay counted.
        if (entry !== undefined) Object.assign(entry, { failures: [], lockedUntil: 0, lockouts: 0 });
      }
      // An entry left holding nothing goes, so that sign-ins that pass take no room from failures.
      for (const key of keys) {
        const entry = entries.get(key);
        if (entry?.inProgress === 0 && entry.failures.length === 0 && entry.lockouts === 0)
          entries.delete(key);
      }
    },
  };
}
