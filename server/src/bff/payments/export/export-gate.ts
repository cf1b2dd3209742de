import { randomUUID } from 'node:crypto';
import type { SharedState } from '../../../shared-state/index.ts';

/** How long a download may wait for its reader, and run in all. */
export const EXPORT_TIMES = {
  /** A download whose client accepts no bytes for this long is ended. */
  idleMs: 60_000,
  /** No download runs longer than this. */
  maxDurationMs: 30 * 60_000,
};

export type ExportAdmission = { ok: true; leave(): void } | { ok: false; scope: 'user' | 'all' };

/** A place is held for this long unless renewed, so a replica that dies mid-download frees its places. */
const LEASE_MS = 90_000;

/**
 * Admits CSV downloads up to the per-user and overall caps, counted in the shared state so the caps hold across
 * replicas: each download walks the upstream for as long as it runs, so one user opening hundreds of them would
 * take the upstream and the BFF's memory from everyone else.
 */
export function createExportGate(state: SharedState, limits: { perUser: number; total: number }) {
  let stopping = false;
  let running = 0;
  const userKey = (user: string) => `exports:user:${user}`;
  const ALL = 'exports:all';
  return {
    async enter(user: string): Promise<ExportAdmission> {
      const holder = randomUUID();
      if (!(await state.acquire(userKey(user), holder, limits.perUser, LEASE_MS)))
        return { ok: false, scope: 'user' };
      let all: boolean;
      try {
        all = await state.acquire(ALL, holder, limits.total, LEASE_MS);
      } catch (error) {
        // the user's place is not left held for a lease when the store fails between the two
        await state.release(userKey(user), holder).catch(() => undefined);
        throw error;
      }
      if (!all) {
        await state.release(userKey(user), holder);
        return { ok: false, scope: 'all' };
      }
      running += 1;
      // A store that blinks while the download runs does not cut it: the places are renewed at the next tick.
      const renew = setInterval(() => {
        state.renew(userKey(user), holder, LEASE_MS).catch(() => undefined);
        state.renew(ALL, holder, LEASE_MS).catch(() => undefined);
      }, LEASE_MS / 3);
      renew.unref();
      let left = false;
      return {
        ok: true,
        leave() {
          if (left) return;
          left = true;
          running -= 1;
          clearInterval(renew);
          state.release(userKey(user), holder).catch(() => undefined);
          state.release(ALL, holder).catch(() => undefined);
        },
      };
    },
    /** The process is stopping: a download that ends unfinished from now on was cut by the shutdown. */
    stop() {
      stopping = true;
    },
    get stopping() {
      return stopping;
    },
    /** Downloads running in this process. */
    get running() {
      return running;
    },
  };
}

export type ExportGate = ReturnType<typeof createExportGate>;
