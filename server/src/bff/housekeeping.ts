/**
 * Work that must be done but that no request waits for: writing the request log's line, making the next cursor's
 * cipher. Run right after a response, it would delay the browser's next request, which often arrives at once;
 * here it runs when this process is about to be idle anyway, just after it has sent a request upstream (the
 * upstream then takes far longer to answer than this work takes), or after `maxDelayMs` when no request goes
 * upstream. A graceful stop runs what is queued (the BFF's close()); a crash loses at most `maxDelayMs` of it.
 */
/** Queues `task` for the next idle moment. */
export type Defer = (task: () => void) => void;

export interface Housekeeping {
  /** Queues `task` for the next idle moment. */
  defer: Defer;
  /**
   * Call right after a request was handed to the connection pool: queued tasks run in a `setImmediate`, after the
   * pool's own immediate that writes the request, while the upstream works on it.
   */
  upstreamBusy(): void;
  /** Runs every queued task now. */
  runAll(): void;
}

export function createHousekeeping({ maxDelayMs = 20 }: { maxDelayMs?: number } = {}): Housekeeping {
  let queue: (() => void)[] = [];
  let timer: NodeJS.Timeout | undefined;
  let immediate: NodeJS.Immediate | undefined;

  const runAll = () => {
    clearTimeout(timer);
    clearImmediate(immediate);
    timer = undefined;
    immediate = undefined;
    const tasks = queue;
    queue = [];
    for (const task of tasks) task();
  };

  return {
    defer(task) {
      queue.push(task);
      // Unreferenced: queued housekeeping is never a reason to keep the process alive.
      timer ??= setTimeout(runAll, maxDelayMs).unref();
    },
    upstreamBusy() {
      if (queue.length > 0) immediate ??= setImmediate(runAll).unref();
    },
    runAll,
  };
}
