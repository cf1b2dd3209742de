import { describe, expect, it } from 'vitest';
import { createEmbeddedState, createLeases } from '../../../shared-state/index.ts';
import { createSummaryRuns } from './summary-runs.ts';

const figures = (asOf: string) => ({
  count: 0,
  complete: true,
  by_status: [],
  totals: [],
  uninterpreted: 0,
  days: [],
  undated: 0,
  as_of: asOf,
});

describe('summary runs', () => {
  it('a Refresh starts its own walk past an older one, which stops when its last waiter leaves', async () => {
    const state = createEmbeddedState();
    let clock = 1_000;
    const runs = createSummaryRuns(state, createLeases(state), () => clock);
    const walks: { signal: AbortSignal; startedAt: number; finish(): void }[] = [];
    const walk = (signal: AbortSignal, _counted: (rows: number) => void, startedAt: number) =>
      new Promise<ReturnType<typeof figures>>((resolve) => {
        walks.push({ signal, startedAt, finish: () => resolve(figures(new Date(startedAt).toISOString())) });
      });
    const leaving = new AbortController();
    const first = runs.await('q', walk, { signal: leaving.signal, progress() {} });
    clock = 2_000;
    // Asked again (not a Refresh): joins the walk under way.
    const joined = runs.await('q', walk, { signal: leaving.signal, progress() {} });
    expect(walks.length).toBe(1);
    expect(runs.isRunning('q', 2_000)).toBe(false);
    const refresh = runs.await('q', walk, {
      signal: new AbortController().signal,
      progress() {},
      notBefore: 2_000,
    });
    expect(walks.map((w) => w.startedAt)).toEqual([1_000, 2_000]);
    expect(runs.isRunning('q', 2_000)).toBe(true);
    leaving.abort();
    expect(await first).toBe('left');
    expect(await joined).toBe('left');
    expect(walks[0]?.signal.aborted).toBe(true);
    walks[1]?.finish();
    expect(await refresh).toMatchObject({ as_of: new Date(2_000).toISOString() });
    expect((await runs.cached('q'))?.as_of).toBe(new Date(2_000).toISOString());
    await state.close();
  });
});
