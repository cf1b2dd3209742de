/** How many CSV downloads may run at once, and for how long. */
export interface ExportLimits {
  perUser: number;
  total: number;
  /** A download whose client accepts no bytes for this long is ended. */
  idleMs: number;
  /** No download runs longer than this. */
  maxDurationMs: number;
}

export const DEFAULT_EXPORT_LIMITS: ExportLimits = {
  perUser: 2,
  total: 16,
  idleMs: 60_000,
  maxDurationMs: 30 * 60_000,
};

export type ExportAdmission = { ok: true; leave(): void } | { ok: false; scope: 'user' | 'all' };

/**
 * Admits CSV downloads up to the per-user and overall caps: each one walks the upstream for as long as it runs, so
 * one user opening hundreds of them would take the upstream and the BFF's memory from everyone else.
 */
export function createExportGate(limits: Pick<ExportLimits, 'perUser' | 'total'>) {
  const byUser = new Map<string, number>();
  let total = 0;
  let stopping = false;
  return {
    enter(user: string): ExportAdmission {
      const mine = byUser.get(user) ?? 0;
      if (mine >= limits.perUser) return { ok: false, scope: 'user' };
      if (total >= limits.total) return { ok: false, scope: 'all' };
      byUser.set(user, mine + 1);
      total += 1;
      let left = false;
      return {
        ok: true,
        leave() {
          if (left) return;
          left = true;
          total -= 1;
          const count = (byUser.get(user) ?? 1) - 1;
          if (count === 0) byUser.delete(user);
          else byUser.set(user, count);
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
    get running() {
      return total;
    },
  };
}

export type ExportGate = ReturnType<typeof createExportGate>;
