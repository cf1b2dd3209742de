import { availableParallelism } from 'node:os';
import { addressGroup } from './sign-in-guard.ts';

export type Budgeted<T> = { ok: true; value: T } | { ok: false; retryAfterSeconds: number };

/**
 * A budget for password checks, each a scrypt hash that holds a core for tens of milliseconds: at most
 * `concurrent` run at once (a core is left for everything else), `queued` wait, and one address has one in the
 * system at a time, so a crowd of sign-ins can neither pin every core nor keep one user out by its numbers alone.
 * An attempt beyond the budget is answered at once, without a hash.
 */
export function createHashingBudget({
  concurrent = Math.max(1, availableParallelism() - 1),
  queued = 16,
}: {
  concurrent?: number;
  queued?: number;
} = {}) {
  let running = 0;
  const waiting: (() => void)[] = [];
  const addresses = new Set<string>();

  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  };

  return {
    async run<T>(address: string, task: () => Promise<T>): Promise<Budgeted<T>> {
      const group = addressGroup(address);
      if (addresses.has(group) || (running >= concurrent && waiting.length >= queued))
        return { ok: false, retryAfterSeconds: 1 };
      addresses.add(group);
      try {
        if (running < concurrent) running += 1;
        else await new Promise<void>((resolve) => waiting.push(resolve));
        try {
          return { ok: true, value: await task() };
        } finally {
          release();
        }
      } finally {
        addresses.delete(group);
      }
    },
  };
}

export type HashingBudget = ReturnType<typeof createHashingBudget>;
