import { describe, expect, it } from 'vitest';
import { awaitSharedRun, type SharedRun } from './shared-run.ts';

const pending = () => {
  let finish: (value: string) => void = () => {};
  const outcome = new Promise<string>((resolve) => (finish = resolve));
  const run: SharedRun<string> = { outcome, stop: new AbortController(), listeners: new Set() };
  return { run, finish };
};

describe('a shared run', () => {
  it('is left at once by a waiter whose signal had aborted before it came, and stops with nobody waiting', async () => {
    const { run } = pending();
    let idle = 0;
    const gone = AbortSignal.abort();
    expect(await awaitSharedRun(run, { signal: gone, progress() {} }, () => (idle += 1))).toBe('left');
    expect(run.stop.signal.aborted).toBe(true);
    expect(run.listeners.size).toBe(0);
    expect(idle).toBe(1);
  });

  it('goes on while another waiter stays, and gives that one its outcome and progress', async () => {
    const { run, finish } = pending();
    const leaving = new AbortController();
    const heard: number[] = [];
    let idle = 0;
    const first = awaitSharedRun(run, { signal: leaving.signal, progress() {} }, () => (idle += 1));
    const second = awaitSharedRun(
      run,
      { signal: new AbortController().signal, progress: (n) => heard.push(n) },
      () => (idle += 1),
    );
    leaving.abort();
    expect(await first).toBe('left');
    expect(run.stop.signal.aborted).toBe(false);
    for (const listener of run.listeners) listener(7);
    finish('figures');
    expect(await second).toBe('figures');
    expect(heard).toEqual([7]);
    expect(idle).toBe(1);
  });
});
