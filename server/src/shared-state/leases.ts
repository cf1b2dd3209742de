import { randomUUID } from 'node:crypto';
import type { SharedState } from './shared-state.ts';

/** A place is held for this long unless renewed, so a replica that dies holding places frees them. */
const LEASE_MS = 30_000;
/** How often a held place is renewed; a place taken over meanwhile is noticed then. */
const RENEW_MS = 2_000;

/** A place held: `lost` aborts when it is taken over (or could not be renewed in time); `leave` gives it back. */
export interface Held {
  lost: AbortSignal;
  leave(): void;
}

/**
 * Places under keys, counted in the shared state so limits hold across replicas: a download, a walk, a user's one
 * summary. Each place is a lease renewed while it is held; a place given back, or not renewed (its replica died),
 * is free again. A place can be taken over (`takeOver`): the holder before notices at its next renewal, or at
 * once when it is held in this process.
 */
export function createLeases(state: SharedState, times = { leaseMs: LEASE_MS, renewMs: RENEW_MS }) {
  const local = new Map<string, Map<string, AbortController>>();
  const hold = (key: string, holder: string): Held => {
    const lost = new AbortController();
    const mine = local.get(key) ?? new Map<string, AbortController>();
    local.set(key, mine);
    mine.set(holder, lost);
    const renew = setInterval(() => {
      state.renew(key, holder, times.leaseMs).then(
        (held) => {
          if (!held) lost.abort();
        },
        // A store that blinks does not end the place: the next renewal tries again within the lease.
        () => undefined,
      );
    }, times.renewMs);
    renew.unref();
    let left = false;
    return {
      lost: lost.signal,
      leave() {
        if (left) return;
        left = true;
        clearInterval(renew);
        mine.delete(holder);
        if (mine.size === 0) local.delete(key);
        state.release(key, holder).catch(() => undefined);
      },
    };
  };
  return {
    /** One of `limit` places under `key`, or null when all are taken. */
    async enter(key: string, limit: number): Promise<Held | null> {
      const holder = randomUUID();
      return (await state.acquire(key, holder, limit, times.leaseMs)) ? hold(key, holder) : null;
    },
    /** The one place under `key`, taken from whoever held it. */
    async takeOver(key: string): Promise<Held> {
      const holder = randomUUID();
      for (const lost of local.get(key)?.values() ?? []) lost.abort();
      // Another replica may take it in the moment between: then it is taken from that one too.
      for (let tries = 0; tries < 3; tries++) {
        await state.delete(key);
        if (await state.acquire(key, holder, 1, times.leaseMs)) break;
      }
      return hold(key, holder);
    },
  };
}

export type Leases = ReturnType<typeof createLeases>;
