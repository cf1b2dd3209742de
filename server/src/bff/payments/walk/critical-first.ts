/**
 * The page reads of one walk's companies, a few at once, the company with the most pages left first. A budget of
 * R requests a second serves about R × (a page's latency) chains of pages at full speed: more chains at once only
 * slow each other, and the longest chain (the largest company) sets the walk's time, so it goes first.
 */
export function criticalFirst(ratePerSecond: number, now: () => number = () => performance.now()) {
  let running = 0;
  /** The quickest page seen: the latency without waits. */
  let quickestMs = Number.POSITIVE_INFINITY;
  const waiting: { left: number; go: () => void }[] = [];
  const width = () =>
    Number.isFinite(quickestMs) ? Math.max(2, Math.ceil((ratePerSecond * quickestMs) / 1000) + 1) : Infinity;
  const next = () => {
    while (running < width() && waiting.length > 0) {
      let first = 0;
      for (let i = 1; i < waiting.length; i++)
        if ((waiting[i]?.left ?? 0) > (waiting[first]?.left ?? 0)) first = i;
      const [chosen] = waiting.splice(first, 1);
      running += 1;
      chosen?.go();
    }
  };
  return {
    /** Runs `read` when its turn comes: `left` is its chain's pages left (an estimate; unknown: Infinity). */
    async run<T>(left: number, read: () => Promise<T>): Promise<T> {
      await new Promise<void>((go) => {
        waiting.push({ left, go });
        next();
      });
      const started = now();
      try {
        return await read();
      } finally {
        quickestMs = Math.min(quickestMs, now() - started);
        running -= 1;
        next();
      }
    },
  };
}

/**
 * A company's pages left down to instant `from` (newest first), from the rows it has read so far: their span
 * in time and how many they were. Infinity before a full page says how dense the list is.
 */
export function pagesLeft(
  read: { rows: number; newest?: number | undefined; oldest?: number | undefined },
  from: number | undefined,
  pageSize: number,
): number {
  const { rows, newest, oldest } = read;
  if (
    from === undefined ||
    newest === undefined ||
    oldest === undefined ||
    rows < pageSize ||
    newest <= oldest
  )
    return Number.POSITIVE_INFINITY;
  if (oldest <= from) return 0;
  return ((oldest - from) * rows) / (newest - oldest) / pageSize;
}
