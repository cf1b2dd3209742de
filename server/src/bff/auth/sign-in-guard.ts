import { isIPv6 } from 'node:net';

/**
 * Why a sign-in attempt may not be checked now: its (user, address) pair or its address failed too often
 * (`locked`), or its user is under a guessing attack and attempts for it are spaced out (`slowed`).
 */
export type GuardVerdict =
  | { allowed: true }
  | { allowed: false; reason: 'locked' | 'slowed'; retryAfterSeconds: number };

export interface SignInGuardOptions {
  /** Failures of one user from one address before the pair is locked. Default 5. */
  pairFailures?: number;
  /** Failures from one address, whatever the users, before the address is locked: high, for office NATs. Default 50. */
  addressFailures?: number;
  /** How long failures count, and the first lockout; each further lockout doubles, up to 16×. Default 15 min. */
  windowMs?: number;
  /** Failures of one user within an hour, from any addresses, before its attempts are spaced out. Default 5. */
  userFreeFailures?: number;
  /** Password checks of one user per hour at most once it is spaced out (its free failures included). Default 50. */
  userChecksPerHour?: number;
  /** Pair and address entries kept at most; users have one entry each and are never dropped. Default 50 000. */
  maxEntries?: number;
  now?: () => number;
}

interface Counter {
  /** Failure times within the window, oldest first. */
  failures: number[];
  lockedUntil: number;
  lockouts: number;
}

interface UserPace {
  /** Failure times within the last hour, oldest first (at most the hour's budget). */
  failures: number[];
  /** Checks allowed and not yet ended: guesses sent in parallel count before they fail. */
  inFlight: number;
  /** While spaced out, the earliest time the next check may run. */
  nextCheckAt: number;
}

const HOUR_MS = 3_600_000;
const MAX_LOCKOUT_DOUBLINGS = 4;

/** The address an attempt is counted under: IPv6 by its /64 (one subscriber's network), IPv4 as it is. */
export function addressGroup(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1] as string;
  if (!isIPv6(address)) return address;
  const [head = '', tail = ''] = address.toLowerCase().split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === '' ? [] : tail.split(':');
  const full = address.includes('::')
    ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
    : left;
  return `${full
    .slice(0, 4)
    .map((part) => part.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

/**
 * Stops password guessing without locking people out:
 * - failures of one user from one address lock that pair only, so the same user elsewhere is not refused;
 * - failures from one address across many users lock the address, at a threshold an office NAT does not reach;
 * - failures of one user spread over many addresses space that user's checks out to at most `userChecksPerHour`:
 *   an attempt is told when to come back (`slowed`), and the user's right password is never judged wrong.
 * Users are counted in an entry each that is never dropped (`knownUser` says which names to count), so a flood of
 * fresh addresses or names cannot flush a user's count; pairs and addresses are bounded, oldest dropped first.
 */
export function createSignInGuard(knownUser: (name: string) => boolean, options: SignInGuardOptions = {}) {
  const pairFailures = options.pairFailures ?? 5;
  const addressFailures = options.addressFailures ?? 50;
  const windowMs = options.windowMs ?? 15 * 60_000;
  const userFree = options.userFreeFailures ?? 5;
  const spacingMs = HOUR_MS / Math.max(1, (options.userChecksPerHour ?? 50) - userFree);
  const maxEntries = options.maxEntries ?? 50_000;
  const now = options.now ?? Date.now;
  const counters = new Map<string, Counter>();
  const users = new Map<string, UserPace>();

  const recent = (times: number[], since: number) => times.filter((at) => at > since);
  const paceOf = (user: string): UserPace => {
    let pace = users.get(user);
    if (pace === undefined) {
      pace = { failures: [], inFlight: 0, nextCheckAt: 0 };
      users.set(user, pace);
    }
    return pace;
  };

  function counterFor(key: string): Counter {
    let counter = counters.get(key);
    if (counter === undefined) {
      if (counters.size >= maxEntries) counters.delete(counters.keys().next().value as string);
      counter = { failures: [], lockedUntil: 0, lockouts: 0 };
    } else counters.delete(key);
    // Re-inserted on every touch: the first entry is the least recently used.
    counters.set(key, counter);
    return counter;
  }

  function countFailure(key: string, limit: number, time: number): void {
    const counter = counterFor(key);
    if (counter.lockedUntil > time) return;
    counter.failures = recent(counter.failures, time - windowMs);
    counter.failures.push(time);
    if (counter.failures.length >= limit) {
      counter.lockedUntil = time + windowMs * 2 ** Math.min(counter.lockouts, MAX_LOCKOUT_DOUBLINGS);
      counter.lockouts += 1;
      counter.failures = [];
    }
  }

  const keysOf = (user: string, address: string) => {
    const group = addressGroup(address);
    return { pair: `pair:${user}|${group}`, address: `address:${group}` };
  };

  return {
    /** Whether an attempt for `user` (canonical name) from `address` may have its password checked now. */
    check(user: string, address: string): GuardVerdict {
      const time = now();
      const keys = keysOf(user, address);
      const lockedUntil = Math.max(
        counters.get(keys.pair)?.lockedUntil ?? 0,
        counters.get(keys.address)?.lockedUntil ?? 0,
      );
      if (lockedUntil > time)
        return {
          allowed: false,
          reason: 'locked',
          retryAfterSeconds: Math.ceil((lockedUntil - time) / 1000),
        };
      if (!knownUser(user)) return { allowed: true };
      const pace = paceOf(user);
      if (recent(pace.failures, time - HOUR_MS).length + pace.inFlight >= userFree) {
        if (pace.nextCheckAt > time)
          return {
            allowed: false,
            reason: 'slowed',
            retryAfterSeconds: Math.ceil((pace.nextCheckAt - time) / 1000),
          };
        pace.nextCheckAt = time + spacingMs;
      }
      pace.inFlight += 1;
      return { allowed: true };
    },

    fail(user: string, address: string): void {
      const time = now();
      const keys = keysOf(user, address);
      countFailure(keys.pair, pairFailures, time);
      countFailure(keys.address, addressFailures, time);
      if (!knownUser(user)) return;
      const pace = paceOf(user);
      pace.inFlight = Math.max(0, pace.inFlight - 1);
      pace.failures = recent(pace.failures, time - HOUR_MS).slice(-Math.ceil(HOUR_MS / spacingMs) - userFree);
      pace.failures.push(time);
    },

    /** The attempt was allowed but never checked (no room to hash it): it counts neither way. */
    abandon(user: string): void {
      const pace = users.get(user);
      if (pace) pace.inFlight = Math.max(0, pace.inFlight - 1);
    },

    /** The right password: the pair starts afresh. The address and the user keep what others did to them. */
    succeed(user: string, address: string): void {
      counters.delete(keysOf(user, address).pair);
      const pace = users.get(user);
      if (pace) pace.inFlight = Math.max(0, pace.inFlight - 1);
    },
  };
}

export type SignInGuard = ReturnType<typeof createSignInGuard>;
