import { randomInt } from 'node:crypto';
import {
  DEFAULT_SCRYPT_COST,
  parsePasswordHash,
  type ScryptCost,
  unmatchableHash,
  verifyPassword,
} from './password.ts';
import type { AuthUser, UserStore } from './users.ts';

export interface Authenticator {
  /** Whether `password` is the user's. */
  verify(user: AuthUser, password: string): Promise<boolean>;
  /**
   * A full check against a hash no password matches, at the cost most users' hashes have: what a real check
   * costs, for timing one when none was made yet.
   */
  verifyNobody(password: string): Promise<false>;
}

/** Whether the user's stored hash can be checked at all; one that cannot fails like an unknown name. */
export function checkable(user: AuthUser | undefined): user is AuthUser {
  return user !== undefined && parsePasswordHash(user.passwordHash) !== null;
}

/** The cost most users' hashes have, so a check of nobody costs what a typical known user's costs. */
function prevailingCost(store: UserStore): ScryptCost {
  const counts = new Map<string, { cost: ScryptCost; count: number }>();
  for (const user of store.all()) {
    const parsed = parsePasswordHash(user.passwordHash);
    if (parsed === null) continue;
    const key = `${parsed.cost.N}/${parsed.cost.r}/${parsed.cost.p}`;
    const entry = counts.get(key) ?? { cost: parsed.cost, count: 0 };
    entry.count += 1;
    counts.set(key, entry);
  }
  let best: { cost: ScryptCost; count: number } | undefined;
  for (const entry of counts.values()) if (best === undefined || entry.count > best.count) best = entry;
  return best?.cost ?? DEFAULT_SCRYPT_COST;
}

export function createAuthenticator(store: UserStore, options: { dummyHash?: string } = {}): Authenticator {
  const dummyHash = options.dummyHash ?? unmatchableHash(prevailingCost(store));
  return {
    verify: (user, password) => verifyPassword(password, user.passwordHash),
    async verifyNobody(password) {
      await verifyPassword(password, dummyHash);
      return false;
    },
  };
}

/**
 * How long recent real password checks took (the hash alone), so that an attempt that needs none (an unknown
 * username, a wrong second-factor code) is answered after a time drawn from them: its answer and its timing are
 * those of a real check, and it costs no hashing. Checks timed at start (of nobody, while the process was still
 * starting up) answer only until `minimum` real ones were timed.
 */
export function createCheckTimes({ size = 64, minimum = 8 }: { size?: number; minimum?: number } = {}) {
  const samples: number[] = [];
  const atStart: number[] = [];
  let next = 0;
  return {
    record(ms: number) {
      samples[next] = ms;
      next = (next + 1) % size;
    },
    /** A check timed before any real one, to answer with until real ones are known. */
    recordAtStart(ms: number) {
      if (atStart.length < size) atStart.push(ms);
    },
    /** One of the recent durations, at random; null until `minimum` checks were timed. */
    draw(): number | null {
      const from = samples.length >= minimum ? samples : atStart.length >= minimum ? atStart : null;
      return from === null ? null : (from[randomInt(from.length)] ?? null);
    },
  };
}
