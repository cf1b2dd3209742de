import type { PoolLimits, ScoreRange, SharedState } from './shared-state.ts';

type Value = string | number | Set<string> | Map<string, number> | Scored;
/** Members by score, kept sorted by score (then member) as Redis orders them. */
type Scored = { scored: { member: string; score: number }[] };
interface Entry {
  value: Value;
  expiresAt: number;
}

const SWEEP_MS = 60_000;

interface Pooled {
  owner: string;
  value: string;
  bytes: number;
  expiresAt: number;
  /** When it was last used, as a count of uses: exact where milliseconds tie. */
  used: number;
}
/** A pool's entries in the order of their last use (a Map keeps insertion order), and each owner's ids. */
interface Pool {
  entries: Map<string, Pooled>;
  owners: Map<string, Set<string>>;
  bytes: number;
}

/**
 * The in-process store, for one replica (the default). Entries expire like Redis keys; a sweep drops the expired
 * ones every minute. Nothing is evicted for room: what attackers can add is bounded elsewhere (failed sign-ins
 * by the hashing budget, sessions by successful sign-ins), and evicting would sign people out or forget a
 * guessing count.
 */
export function createEmbeddedState(options: { now?: () => number } = {}): SharedState {
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry>();
  const pools = new Map<string, Pool>();
  let uses = 0;
  const sweep = setInterval(() => {
    const time = now();
    for (const [key, entry] of entries) if (entry.expiresAt <= time) entries.delete(key);
    for (const pool of pools.values()) dropExpired(pool);
  }, SWEEP_MS);
  sweep.unref();

  const live = (key: string): Entry | undefined => {
    const entry = entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt > now()) return entry;
    entries.delete(key);
    return undefined;
  };
  const scoredOf = (key: string): Scored['scored'] => {
    const value = live(key)?.value;
    return typeof value === 'object' && 'scored' in value ? value.scored : [];
  };
  const inRange = (items: Scored['scored'], min: number, max: number) =>
    items.filter((item) => item.score >= min && item.score <= max);
  const text = (entry: Entry | undefined) =>
    entry === undefined ? null : typeof entry.value === 'object' ? null : String(entry.value);
  const leasesOf = (key: string): Map<string, number> => {
    const entry = live(key);
    const leases = entry?.value instanceof Map ? entry.value : new Map<string, number>();
    const time = now();
    for (const [holder, until] of leases) if (until <= time) leases.delete(holder);
    return leases;
  };
  const poolOf = (name: string): Pool => {
    let pool = pools.get(name);
    if (pool === undefined) {
      pool = { entries: new Map(), owners: new Map(), bytes: 0 };
      pools.set(name, pool);
    }
    return pool;
  };
  const dropPooled = (pool: Pool, id: string) => {
    const entry = pool.entries.get(id);
    if (entry === undefined) return;
    pool.entries.delete(id);
    pool.bytes -= entry.bytes;
    const owned = pool.owners.get(entry.owner);
    owned?.delete(id);
    if (owned?.size === 0) pool.owners.delete(entry.owner);
  };
  // Entries are in the order of their last use, so the expired ones are at the front.
  const dropExpired = (pool: Pool) => {
    const time = now();
    for (const [id, entry] of pool.entries) {
      if (entry.expiresAt > time) break;
      dropPooled(pool, id);
    }
  };
  /** Of the owners holding the most entries, the least recently used entry that is not `keep`. */
  const largestOwnersOldest = (pool: Pool, keep: string): string | undefined => {
    let most = 0;
    for (const owned of pool.owners.values()) most = Math.max(most, owned.size);
    let victim: { id: string; used: number } | undefined;
    for (const owned of pool.owners.values()) {
      if (owned.size !== most) continue;
      for (const candidate of owned) {
        if (candidate === keep) continue;
        const used = pool.entries.get(candidate)?.used ?? 0;
        if (victim === undefined || used < victim.used) victim = { id: candidate, used };
        break;
      }
    }
    if (victim !== undefined) return victim.id;
    for (const candidate of pool.entries.keys()) if (candidate !== keep) return candidate;
    return undefined;
  };
  const storeLeases = (key: string, leases: Map<string, number>) => {
    if (leases.size === 0) entries.delete(key);
    else entries.set(key, { value: leases, expiresAt: Math.max(...leases.values()) });
  };

  return {
    async get(key) {
      return text(live(key));
    },
    async getAndTouch(key, ttlMs) {
      const entry = live(key);
      if (entry !== undefined) entry.expiresAt = now() + ttlMs;
      return text(entry);
    },
    async set(key, value, ttlMs) {
      entries.set(key, { value, expiresAt: now() + ttlMs });
    },
    async setIfAbsent(key, value, ttlMs) {
      if (live(key) !== undefined) return false;
      entries.set(key, { value, expiresAt: now() + ttlMs });
      return true;
    },
    async delete(...keys) {
      for (const key of keys) entries.delete(key);
    },
    async increment(key, by, ttlMs, options) {
      const entry = live(key);
      if (entry === undefined || typeof entry.value !== 'number') {
        entries.set(key, { value: by, expiresAt: now() + ttlMs });
        return by;
      }
      entry.value += by;
      if (options?.slide) entry.expiresAt = now() + ttlMs;
      return entry.value;
    },
    async timeLeft(key) {
      const entry = live(key);
      return entry === undefined ? 0 : entry.expiresAt - now();
    },
    async addMember(key, member, ttlMs) {
      const entry = live(key);
      const members = entry?.value instanceof Set ? entry.value : new Set<string>();
      members.add(member);
      entries.set(key, { value: members, expiresAt: now() + ttlMs });
    },
    async removeMember(key, member) {
      const entry = live(key);
      if (entry?.value instanceof Set) entry.value.delete(member);
    },
    async members(key) {
      const entry = live(key);
      return entry?.value instanceof Set ? [...entry.value] : [];
    },
    async acquire(key, holder, limit, leaseMs) {
      const leases = leasesOf(key);
      const taken = leases.size < limit || leases.has(holder);
      if (taken) leases.set(holder, now() + leaseMs);
      storeLeases(key, leases);
      return taken;
    },
    async renew(key, holder, leaseMs) {
      const leases = leasesOf(key);
      const held = leases.has(holder);
      if (held) leases.set(holder, now() + leaseMs);
      storeLeases(key, leases);
      return held;
    },
    async release(key, holder) {
      const leases = leasesOf(key);
      leases.delete(holder);
      storeLeases(key, leases);
    },
    async reserveTurn(key, intervalMs) {
      const time = now();
      const entry = live(key);
      const start = Math.max(typeof entry?.value === 'number' ? entry.value : 0, time);
      entries.set(key, { value: start + intervalMs, expiresAt: start + intervalMs + 1_000 });
      return start - time;
    },
    async holdTurns(key, ms) {
      const time = now();
      const entry = live(key);
      const next = Math.max(typeof entry?.value === 'number' ? entry.value : 0, time + ms);
      entries.set(key, { value: next, expiresAt: next + 1_000 });
    },
    async addScored(key, member, score, { ttlMs, max }) {
      const items = scoredOf(key).filter((item) => item.member !== member);
      items.push({ member, score });
      items.sort((a, b) => a.score - b.score || (a.member < b.member ? -1 : a.member > b.member ? 1 : 0));
      entries.set(key, {
        value: { scored: items.slice(Math.max(0, items.length - max)) },
        expiresAt: now() + ttlMs,
      });
    },
    async rangeScored(key, { min, max, reverse = false, offset = 0, limit }: ScoreRange) {
      const items = inRange(scoredOf(key), min, max);
      if (reverse) items.reverse();
      return items.slice(offset, offset + limit).map((item) => item.member);
    },
    async countScored(key, min, max) {
      return inRange(scoredOf(key), min, max).length;
    },
    async removeScored(key, member) {
      const value = live(key)?.value;
      if (typeof value === 'object' && 'scored' in value)
        value.scored = value.scored.filter((item) => item.member !== member);
    },
    async takeTurn(key, holder, spacingMs, keepMs, maxPlaces) {
      const time = now();
      const entry = live(key);
      // Holders in the order they took their places, each with when it last asked.
      const line = entry?.value instanceof Map ? entry.value : new Map<string, number>();
      for (const [waiting, seen] of line) if (seen < time - keepMs) line.delete(waiting);
      if (maxPlaces !== undefined && !line.has(holder) && line.size >= maxPlaces) return -1;
      line.set(holder, time);
      const rank = [...line.keys()].indexOf(holder);
      const next = live(`${key}:next`)?.value;
      const slot = typeof next === 'number' ? next : 0;
      let wait = Math.max(0, slot - time) + rank * spacingMs;
      if (rank === 0 && slot <= time) {
        line.delete(holder);
        entries.set(`${key}:next`, { value: time + spacingMs, expiresAt: time + spacingMs });
        wait = 0;
      }
      if (line.size === 0) entries.delete(key);
      else entries.set(key, { value: line, expiresAt: time + keepMs });
      return wait;
    },
    async keepPooled(name, owner, id, value, { ttlMs, perOwner, maxBytes }: PoolLimits) {
      const pool = poolOf(name);
      dropExpired(pool);
      dropPooled(pool, id);
      const bytes = Buffer.byteLength(value) + Buffer.byteLength(id);
      pool.entries.set(id, { owner, value, bytes, expiresAt: now() + ttlMs, used: ++uses });
      pool.bytes += bytes;
      const owned = pool.owners.get(owner) ?? new Set<string>();
      owned.add(id);
      pool.owners.set(owner, owned);
      for (const oldest of owned) {
        if (owned.size <= perOwner) break;
        dropPooled(pool, oldest);
      }
      while (pool.bytes > maxBytes) {
        const victim = largestOwnersOldest(pool, id);
        if (victim === undefined) break;
        dropPooled(pool, victim);
      }
    },
    async readPooled(name, id, ttlMs) {
      const pool = pools.get(name);
      if (pool === undefined) return null;
      dropExpired(pool);
      const entry = pool.entries.get(id);
      if (entry === undefined) return null;
      // Used now: it moves to the end of both orders.
      entry.expiresAt = now() + ttlMs;
      entry.used = ++uses;
      pool.entries.delete(id);
      pool.entries.set(id, entry);
      const owned = pool.owners.get(entry.owner);
      owned?.delete(id);
      owned?.add(id);
      return entry.value;
    },
    async poolSize(name) {
      const pool = pools.get(name);
      if (pool === undefined) return { entries: 0, bytes: 0 };
      dropExpired(pool);
      return { entries: pool.entries.size, bytes: pool.bytes };
    },
    async ping() {},
    async close() {
      clearInterval(sweep);
      entries.clear();
      pools.clear();
    },
  };
}
