/** A walk several requests wait for: it goes on while any of them still waits. */
export interface SharedRun<T> {
  outcome: Promise<T>;
  /** Stops the walk: called when its last waiter leaves. */
  stop: AbortController;
  /** Each waiter's progress callback. */
  listeners: Set<(done: number) => void>;
}

/**
 * Waits for `run`'s outcome as one of its waiters, hearing its progress, or leaves it when `signal` aborts (at
 * once when it already has: an abort event never comes then). The last waiter to leave stops the walk, and
 * `idle` then lets its owner forget it.
 */
export async function awaitSharedRun<T>(
  run: SharedRun<T>,
  waiter: { signal: AbortSignal; progress(done: number): void },
  idle: () => void,
): Promise<T | 'left'> {
  run.listeners.add(waiter.progress);
  let leave = () => {};
  const left = new Promise<'left'>((resolve) => {
    leave = () => resolve('left');
    if (waiter.signal.aborted) leave();
    else waiter.signal.addEventListener('abort', leave, { once: true });
  });
  try {
    return await Promise.race([run.outcome, left]);
  } finally {
    waiter.signal.removeEventListener('abort', leave);
    run.listeners.delete(waiter.progress);
    if (run.listeners.size === 0) {
      run.stop.abort();
      idle();
    }
  }
}
