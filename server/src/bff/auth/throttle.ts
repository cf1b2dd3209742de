import { canonicalUsername } from './users.ts';

export interface Throttle {
  /** Refused while any key is locked out; `retryAfterSeconds` is when the last of them unlocks. */
  check(keys: string[]): { allowed: boolean; retryAfterSeconds: number };
  /** Counts one failed sign-in against every key. */
  fail(keys: string[]): void;
  /** Forgets the failures (and lockout history) of these keys. */
  succeed(keys: string[]): void;
}

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

  return {
    check(keys) {
      const time = now();
      let lockedUntil = 0;
      for (const key of keys) {
        const entry = entries.get(key);
        if (entry !== undefined && entry.lockedUntil > time)
          lockedUntil = Math.max(lockedUntil, entry.lockedUntil);
      }
      return lockedUntil === 0
        ? { allowed: true, retryAfterSeconds: 0 }
        : { allowed: false, retryAfterSeconds: Math.ceil((lockedUntil - time) / 1000) };
    },

    fail(keys) {
      const time = now();
      for (const key of keys) {
        const entry = entries.get(key) ?? { failures: [], lockedUntil: 0, lockouts: 0, expiresAt: 0 };
        if (entry.expiresAt <= time) {
          entry.failures = [];
          entry.lockouts = 0;
        }
        // Attempts refused by check() never get here; a failure reported during a lockout does not extend it.
        if (entry.lockedUntil <= time) {
          entry.failures = entry.failures.filter((at) => at > time - windowMs);
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

    succeed(keys) {
      for (const key of keys) entries.delete(key);
    },
  };
}
