/** Refusals of cursors older than every accepted one before a lifetime is believed: one may have another cause. */
const REFUSALS_TO_LEARN = 2;

/**
 * How long the upstream keeps its cursors: UPSTREAM_CURSOR_TTL, or learned from what it refuses. An upstream that
 * expires cursors refuses every one past an age, so a refused cursor older than every accepted one bounds the
 * lifetime from above, and an accepted one bounds it from below. A remembered position whose cursor is older than
 * the lifetime (less a margin: a walk uses it a little after it is planned) is not planned from.
 */
export function createCursorLifetime(parts: {
  /** UPSTREAM_CURSOR_TTL, in seconds. */
  configuredSeconds?: number | undefined;
  now: () => number;
  /** Hears the lifetime when it is first learned, or learned anew (for the log and the metrics). */
  onLearned?(seconds: number, source: 'configured' | 'learned'): void;
}) {
  const configured = parts.configuredSeconds === undefined ? undefined : parts.configuredSeconds * 1000;
  let learned: number | undefined;
  let oldestAccepted = 0;
  let refusedAges: number[] = [];
  if (configured !== undefined) parts.onLearned?.(configured / 1000, 'configured');

  const knownMs = () => configured ?? learned;
  return {
    /** The lifetime in milliseconds, when configured or learned. */
    knownMs,
    /** Whether a cursor issued at `issuedAt` may still be planned from. */
    usable(issuedAt: number): boolean {
      const lifetime = knownMs();
      if (lifetime === undefined) return true;
      // A part may start a few seconds after its plan, and waits its turn in the budget before it is sent.
      const margin = Math.min(10_000, lifetime / 6);
      return parts.now() - issuedAt < lifetime - margin;
    },
    /** A cursor issued at `issuedAt` was accepted or refused just now. */
    observe(issuedAt: number, refused: boolean): void {
      if (configured !== undefined) return;
      const age = parts.now() - issuedAt;
      if (!refused) {
        if (age <= oldestAccepted) return;
        oldestAccepted = age;
        refusedAges = refusedAges.filter((refusedAge) => refusedAge > age);
        // The upstream kept one longer than believed: it changed, or the refusals had another cause.
        if (learned !== undefined && age >= learned) learned = undefined;
        return;
      }
      if (age <= oldestAccepted) return;
      refusedAges = [...refusedAges, age].sort((a, b) => a - b).slice(0, 16);
      if (refusedAges.length < REFUSALS_TO_LEARN) return;
      const bound = Math.min(...refusedAges);
      if (learned !== undefined && bound >= learned) return;
      learned = bound;
      parts.onLearned?.(Math.round(bound / 1000), 'learned');
    },
  };
}

export type CursorLifetime = ReturnType<typeof createCursorLifetime>;
