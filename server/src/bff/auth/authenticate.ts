import {
  DEFAULT_SCRYPT_COST,
  parsePasswordHash,
  type ScryptCost,
  unmatchableHash,
  verifyPassword,
} from './password.ts';
import type { AuthUser, UserStore } from './users.ts';

export interface Authenticator {
  /** The user when the password matches; null for a wrong password and for an unknown user alike. */
  authenticate(username: string, password: string): Promise<AuthUser | null>;
}

/** The cost most users' hashes have, so the unknown-user path costs what a typical known user's costs. */
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

/**
 * An unknown username still runs a full scrypt verify, against a dummy hash with the users' own cost, so the
 * answer and its timing do not reveal which usernames exist.
 */
export function createAuthenticator(store: UserStore, options: { dummyHash?: string } = {}): Authenticator {
  const dummyHash = options.dummyHash ?? unmatchableHash(prevailingCost(store));
  return {
    async authenticate(username, password) {
      const user = store.find(username);
      // A user whose stored hash is unusable fails like an unknown one, at the same cost, so timing does not
      // tell that the name exists.
      const usable = user !== undefined && parsePasswordHash(user.passwordHash) !== null;
      const matches = await verifyPassword(password, usable ? user.passwordHash : dummyHash);
      return usable && matches ? user : null;
    },
  };
}
