import { describe, expect, it } from 'vitest';
import { createHashingBudget } from './hashing-budget.ts';

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

describe('hashing budget', () => {
  it('runs at most `concurrent` checks at once, queues `queued`, and answers the rest busy at once', async () => {
    const budget = createHashingBudget({ concurrent: 2, queued: 3 });
    const release = gate();
    let running = 0;
    let most = 0;
    const task = async () => {
      running += 1;
      most = Math.max(most, running);
      await release.opened;
      running -= 1;
      return 'checked';
    };
    const attempts = Array.from({ length: 8 }, (_, i) => budget.run(`10.0.0.${i}`, task));
    await new Promise((resolve) => setTimeout(resolve, 10));
    release.open();
    const results = await Promise.all(attempts);
    expect(results.filter((r) => r.ok)).toHaveLength(5);
    expect(results.filter((r) => !r.ok)).toEqual([
      { ok: false, retryAfterSeconds: 1 },
      { ok: false, retryAfterSeconds: 1 },
      { ok: false, retryAfterSeconds: 1 },
    ]);
    expect(most).toBe(2);
  });

  it('lets one address have `perAddress` checks in the system at a time, counting an IPv6 /64 as one address', async () => {
    const budget = createHashingBudget({ concurrent: 4, queued: 4, perAddress: 1 });
    const release = gate();
    const first = budget.run('2001:db8::1', () => release.opened);
    expect(await budget.run('2001:db8::2', async () => 'x')).toEqual({ ok: false, retryAfterSeconds: 1 });
    expect(await budget.run('192.0.2.1', async () => 'x')).toEqual({ ok: true, value: 'x' });
    release.open();
    await first;
    expect(await budget.run('2001:db8::2', async () => 'x')).toEqual({ ok: true, value: 'x' });
  });

  it('serves trusted devices first, and keeps a lane for them when the common queue is full', async () => {
    const budget = createHashingBudget({ concurrent: 1, queued: 2, perAddress: 9 });
    const release = gate();
    const order: string[] = [];
    const task = (name: string) => async () => {
      order.push(name);
      return name;
    };
    const holder = budget.run('10.0.0.1', () => release.opened);
    const flood = [budget.run('10.0.1.1', task('flood-1')), budget.run('10.0.1.2', task('flood-2'))];
    expect(await budget.run('10.0.1.3', task('flood-3'))).toEqual({ ok: false, retryAfterSeconds: 1 });
    const trusted = budget.run('10.0.2.1', task('trusted'), { priority: true });
    release.open();
    await Promise.all([holder, ...flood, trusted]);
    expect(order).toEqual(['trusted', 'flood-1', 'flood-2']);
  });

  it('frees its place when a check throws', async () => {
    const budget = createHashingBudget({ concurrent: 1, queued: 0 });
    await expect(
      budget.run('10.0.0.1', async () => {
        throw new Error('scrypt failed');
      }),
    ).rejects.toThrow('scrypt failed');
    expect(await budget.run('10.0.0.1', async () => 1)).toEqual({ ok: true, value: 1 });
  });
});
