import { availableParallelism } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { addressGroup } from '../../runtime/addresses.ts';

export type Budgeted<T> = { ok: true; value: T } | { ok: false; retryAfterSeconds: number };

const BUSY = { ok: false, retryAfterSeconds: 1 } as const;
/** While both lanes wait, one turn in this many goes to the common lane, so the trusted one cannot starve it. */
const COMMON_TURN_EVERY = 4;

/**
 * A budget for password checks, each a scrypt hash that holds a core for tens of milliseconds: at most
 * `concurrent` run at once (a core is left for everything else), `queued` wait, and one address has at most
 * `perAddress` in the system (an office signing in at nine, not a crowd), so a flood of sign-ins can neither pin
 * every core nor keep one user out by its numbers alone. Beyond the budget an attempt is answered at once,
 * without a hash. Attempts from trusted devices wait in a lane of their own that is served first (three turns in
 * four while both lanes wait), so a flood that keeps the common queue full does not keep out people who signed in
 * from that browser before; one user holds at most `trustedPerUser` places of it, so a user signing in again
 * and again with her own device cookies does not keep the others' out.
 */
export function createHashingBudget({
  concurrent = Math.max(1, availableParallelism() - 1),
  queued = 16,
  perAddress = 3,
  trustedQueued = 32,
  trustedPerUser = 2,
}: {
  concurrent?: number;
  queued?: number;
  perAddress?: number;
  /** Places in the trusted devices' lane: room for many people at nine, as one user holds only a few. */
  trustedQueued?: number;
  /** Places in the trusted lane (waiting or running) one user may hold. */
  trustedPerUser?: number;
} = {}) {
  let running = 0;
  let turns = 0;
  const common: (() => void)[] = [];
  const trusted: (() => void)[] = [];
  const addresses = new Map<string, number>();
  const trustedUsers = new Map<string, number>();

  const add = (counts: Map<string, number>, key: string, by: number) => {
    const left = (counts.get(key) ?? 0) + by;
    if (left === 0) counts.delete(key);
    else counts.set(key, left);
  };
  const nextWaiter = () => {
    if (trusted.length > 0 && common.length > 0) {
      turns += 1;
      return (turns % COMMON_TURN_EVERY === 0 ? common : trusted).shift();
    }
    return trusted.shift() ?? common.shift();
  };
  const release = () => {
    const next = nextWaiter();
    if (next) next();
    else running -= 1;
  };
  const commonFull = () => running >= concurrent && common.length >= queued;

  return {
    /** Runs `task` within the budget; `trustedUser` puts it in the trusted lane, as one of that user's places. */
    async run<T>(
      address: string,
      task: () => Promise<T>,
      { trustedUser }: { trustedUser?: string } = {},
    ): Promise<Budgeted<T>> {
      const group = addressGroup(address);
      if ((addresses.get(group) ?? 0) >= perAddress) return BUSY;
      if (trustedUser === undefined ? commonFull() : running >= concurrent && trusted.length >= trustedQueued)
        return BUSY;
      if (trustedUser !== undefined && (trustedUsers.get(trustedUser) ?? 0) >= trustedPerUser) return BUSY;
      add(addresses, group, 1);
      if (trustedUser !== undefined) add(trustedUsers, trustedUser, 1);
      try {
        if (running < concurrent) running += 1;
        else
          await new Promise<void>((resolve) => (trustedUser === undefined ? common : trusted).push(resolve));
        try {
          return { ok: true, value: await task() };
        } finally {
          release();
        }
      } finally {
        add(addresses, group, -1);
        if (trustedUser !== undefined) add(trustedUsers, trustedUser, -1);
      }
    },

    /**
     * Answers like a check of the common lane would, without taking a core: after `ms` (what a hash takes) and
     * what the checks waiting now would keep it waiting. An attempt that needs no hash (an unknown username)
     * still takes its address's place meanwhile, and is busy when a check would be.
     */
    async imitate(address: string, ms: number): Promise<Budgeted<undefined>> {
      const group = addressGroup(address);
      if ((addresses.get(group) ?? 0) >= perAddress || commonFull()) return BUSY;
      add(addresses, group, 1);
      try {
        await sleep(running < concurrent ? ms : ms * (1 + (common.length + trusted.length) / concurrent));
        return { ok: true, value: undefined };
      } finally {
        add(addresses, group, -1);
      }
    },
  };
}

export type HashingBudget = ReturnType<typeof createHashingBudget>;
