import { availableParallelism } from 'node:os';
import { addressGroup } from '../../runtime/addresses.ts';

export type Budgeted<T> = { ok: true; value: T } | { ok: false; retryAfterSeconds: number };

/**
 * A budget for password checks, each a scrypt hash that holds a core for tens of milliseconds: at most
 * `concurrent` run at once (a core is left for everything else), `queued` wait, and one address has at most
 * `perAddress` in the system (an office signing in at nine, not a crowd), so a flood of sign-ins can neither pin
 * every core nor keep one user out by its numbers alone. Beyond the budget an attempt is answered at once,
 * without a hash. Attempts from trusted devices (`priority`) wait in a lane of their own that is served first, so
 * a flood that keeps the common queue full does not keep out people who signed in from that browser before.
 */
export function createHashingBudget({
  concurrent = Math.max(1, availableParallelism() - 1),
  queued = 16,
  perAddress = 3,
  priorityQueued = 8,
}: {
  concurrent?: number;
  queued?: number;
  perAddress?: number;
  /** Places in the trusted devices' lane. */
  priorityQueued?: number;
} = {}) {
  let running = 0;
  const waiting: (() => void)[] = [];
  const waitingFirst: (() => void)[] = [];
  const addresses = new Map<string, number>();

  const release = () => {
    const next = waitingFirst.shift() ?? waiting.shift();
    if (next) next();
    else running -= 1;
  };

  return {
    async run<T>(
      address: string,
      task: () => Promise<T>,
      { priority = false }: { priority?: boolean } = {},
    ): Promise<Budgeted<T>> {
      const group = addressGroup(address);
      const mine = addresses.get(group) ?? 0;
      const lane = priority ? waitingFirst : waiting;
      if (
        mine >= perAddress ||
        (running >= concurrent && lane.length >= (priority ? priorityQueued : queued))
      )
        return { ok: false, retryAfterSeconds: 1 };
      addresses.set(group, mine + 1);
      try {
        if (running < concurrent) running += 1;
        else await new Promise<void>((resolve) => lane.push(resolve));
        try {
          return { ok: true, value: await task() };
        } finally {
          release();
        }
      } finally {
        const left = (addresses.get(group) ?? 1) - 1;
        if (left === 0) addresses.delete(group);
        else addresses.set(group, left);
      }
    },
  };
}

export type HashingBudget = ReturnType<typeof createHashingBudget>;
