import { availableParallelism } from 'node:os';
import { addressGroup } from './sign-in-guard.ts';

export type Budgeted<T> = { ok: true; value: T } | { ok: false; retryAfterSeconds: number };

/**
 * A budget for password checks, each a scrypt hash that holds a core for tens of milliseconds: at most
 * `concurrent` run at once (a core is left for everything else), `queued` wait, and one address has at most
 * `perAddress` in the system (an office signing in at nine, not a crowd), so a flood of sign-ins can neither pin
 * every core nor keep one user out by its numbers alone. Beyond the budget an attempt is answered at once,
 * without a hash.
 */
export function createHashingBudget({
  concurrent = Math.max(1, availableParallelism() - 1),
  queued = 16,
  perAddress = 3,
}: {
  concurrent?: number;
  queued?: number;
  perAddress?: number;
} = {}) {
  let running = 0;
  const waiting: (() => void)[] = [];
  const addresses = new Map<string, number>();

  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  };

  return {
    async run<T>(address: string, task: () => Promise<T>): Promise<Budgeted<T>> {
      const group = addressGroup(address);
      const mine = addresses.get(group) ?? 0;
      if (mine >= perAddress || (running >= concurrent && waiting.length >= queued))
        return { ok: false, retryAfterSeconds: 1 };
      addresses.set(group, mine + 1);
      try {
        if (running < concurrent) running += 1;
        else await new Promise<void>((resolve) => waiting.push(resolve));
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
