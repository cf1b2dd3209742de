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
    const trusted = budget.run('10.0.2.1', task('trusted'), { trustedUser: 'ana' });
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

  it('lets one user hold at most trustedPerUser places of the trusted lane; other users keep theirs', async () => {
    const budget = createHashingBudget({
      concurrent: 1,
      queued: 4,
      perAddress: 9,
      trustedQueued: 8,
      trustedPerUser: 2,
    });
    const release = gate();
    const order: string[] = [];
    const task = (name: string) => async () => {
      order.push(name);
      return name;
    };
    const holder = budget.run('10.0.0.1', () => release.opened);
    // One user signing in again and again with her own device cookies, from many addresses.
    const insider = Array.from({ length: 10 }, (_, i) =>
      budget.run(`10.1.0.${i}`, task(`insider-${i}`), { trustedUser: 'ana' }),
    );
    const others = ['bo', 'cy', 'di'].map((user, i) =>
      budget.run(`10.2.0.${i}`, task(user), { trustedUser: user }),
    );
    release.open();
    const answers = await Promise.all([holder, ...insider, ...others]);
    expect(answers.filter((a) => !a.ok)).toHaveLength(8);
    expect(order.filter((name) => name.startsWith('insider'))).toHaveLength(2);
    expect(order).toEqual(expect.arrayContaining(['bo', 'cy', 'di']));
  });

  it('gives the common lane one turn in four while both lanes wait, so trusted devices cannot starve new ones', async () => {
    const budget = createHashingBudget({
      concurrent: 1,
      queued: 8,
      perAddress: 9,
      trustedQueued: 8,
      trustedPerUser: 8,
    });
    const release = gate();
    const order: string[] = [];
    const task = (name: string) => async () => {
      order.push(name);
      return name;
    };
    const holder = budget.run('10.0.0.1', () => release.opened);
    const waiting = [
      ...Array.from({ length: 6 }, (_, i) =>
        budget.run(`10.1.0.${i}`, task(`trusted-${i}`), { trustedUser: 'ana' }),
      ),
      ...Array.from({ length: 3 }, (_, i) => budget.run(`10.2.0.${i}`, task(`new-${i}`))),
    ];
    release.open();
    await Promise.all([holder, ...waiting]);
    expect(order.slice(0, 8)).toEqual([
      'trusted-0',
      'trusted-1',
      'trusted-2',
      'new-0',
      'trusted-3',
      'trusted-4',
      'trusted-5',
      'new-1',
    ]);
  });

  it('imitates a check without taking a core: the address place is held meanwhile, and it is busy when a check would be', async () => {
    const budget = createHashingBudget({ concurrent: 1, queued: 1, perAddress: 1 });
    const release = gate();
    const holder = budget.run('10.0.0.1', () => release.opened);
    const started = performance.now();
    // The only core is taken, yet the imitation answers after its own time.
    expect(await budget.imitate('10.0.0.2', 30)).toEqual({ ok: true, value: undefined });
    expect(performance.now() - started).toBeGreaterThanOrEqual(29);
    const imitating = budget.imitate('10.0.0.3', 50);
    expect(await budget.imitate('10.0.0.3', 1)).toEqual({ ok: false, retryAfterSeconds: 1 });
    expect(await budget.run('10.0.0.3', async () => 'x')).toEqual({ ok: false, retryAfterSeconds: 1 });
    await imitating;
    const queued = budget.run('10.0.0.4', async () => 'queued');
    // The common lane is full now (one running, one waiting): a check would be refused, so is an imitation.
    expect(await budget.imitate('10.0.0.5', 1)).toEqual({ ok: false, retryAfterSeconds: 1 });
    release.open();
    await Promise.all([holder, queued]);
  });
});
