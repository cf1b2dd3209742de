import type { Held, Leases } from '../../../shared-state/index.ts';

/** How long a download may wait for its reader, and run in all. */
export const EXPORT_TIMES = {
  /** A download whose client accepts no bytes for this long is ended. */
  idleMs: 60_000,
  /** No download runs longer than this. */
  maxDurationMs: 30 * 60_000,
  /**
   * The client's pace is judged over this much time spent waiting for it (EXPORT_MIN_BYTES_PER_S). Short, so that
   * readers too slow to be worth a walk give their places back within two windows: the walk waits for what the
   * client takes, so after the first window, which its receive buffer fills, a window measures the client. (Where
   * the kernel's queue cannot be read, a window counts whole pages the socket took: a reader just over the floor
   * may then see a window without one.)
   */
  rateWindowMs: 6_000,
};

export type ExportAdmission = { ok: true; leave(): void } | { ok: false; scope: 'user' | 'all' };

/**
 * Admits downloads up to the per-user and overall caps, as places counted in the shared state so the caps hold
 * across replicas: each download walks the upstream for as long as it runs, so one user opening hundreds of them
 * would take the upstream and the BFF's memory from everyone else.
 */
export function createExportGate(leases: Leases, limits: { perUser: number; total: number }) {
  let stopping = false;
  let running = 0;
  return {
    async enter(user: string): Promise<ExportAdmission> {
      const mine = await leases.enter(`exports:user:${user}`, limits.perUser);
      if (!mine) return { ok: false, scope: 'user' };
      let all: Held | null;
      try {
        all = await leases.enter('exports:all', limits.total);
      } catch (error) {
        // the user's place is not left held for a lease when the store fails between the two
        mine.leave();
        throw error;
      }
      if (!all) {
        mine.leave();
        return { ok: false, scope: 'all' };
      }
      running += 1;
      let left = false;
      const everywhere = all;
      return {
        ok: true,
        leave() {
          if (left) return;
          left = true;
          running -= 1;
          mine.leave();
          everywhere.leave();
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
