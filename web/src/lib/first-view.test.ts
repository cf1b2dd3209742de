import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** A fresh copy of the module (its promise is module state), and whether its promise has settled. */
async function fresh() {
  vi.resetModules();
  const module = await import('./first-view.ts');
  let settled = false;
  void module.afterFirstView.then(() => {
    settled = true;
  });
  return { ...module, settled: () => settled };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('what waits for the first view', () => {
  it('comes once the first view is drawn and the main thread idle, not before', async () => {
    const view = await fresh();
    await vi.advanceTimersByTimeAsync(4_000);
    expect(view.settled()).toBe(false);
    view.firstViewIsDrawn();
    await vi.advanceTimersByTimeAsync(1);
    expect(view.settled()).toBe(true);
  });

  it('comes at once when the user presses a key or a pointer before the first view', async () => {
    for (const type of ['keydown', 'pointerdown']) {
      const view = await fresh();
      await vi.advanceTimersByTimeAsync(100);
      expect(view.settled()).toBe(false);
      window.dispatchEvent(new Event(type));
      await vi.advanceTimersByTimeAsync(0);
      expect(view.settled()).toBe(true);
    }
  });

  it('comes all the same when no first view is drawn within 5 s', async () => {
    const view = await fresh();
    await vi.advanceTimersByTimeAsync(4_999);
    expect(view.settled()).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(view.settled()).toBe(true);
  });
});
