import type { SessionState } from '../api/check-session.ts';

export type IdleWatchState =
  | { phase: 'calm' }
  /** `unreachable`: "Stay signed in" reached no server; the warning stays, and says so. */
  | { phase: 'warning'; deadline: number; unreachable: boolean }
  | { phase: 'ended'; why: 'idle' | 'ended' };

export interface IdleWatchDeps {
  /** SESSION_IDLE_TIMEOUT, as the app config gives it. */
  idleSeconds: number;
  now(): number;
  /** When the session ends without use (session-clock.ts); null while unknown. */
  deadline(): number | null;
  /** Whether the user did something the server has not heard of. */
  hasNews(): boolean;
  check(kind: 'use' | 'look'): Promise<SessionState>;
  onChange(state: IdleWatchState): void;
}

/**
 * How long before the end the warning shows: two minutes; with a timeout shorter than four, half of it, so that a
 * short timeout does not raise the warning at every pause of a user at work (and "Stay signed in" is not followed
 * by the warning at once).
 */
export function warningLeadMs(idleSeconds: number): number {
  return Math.min(120, idleSeconds / 2) * 1000;
}

/** At most this long after input that made no request of its own, the BFF hears of it (a request as use). */
export function reportAfterMs(idleSeconds: number): number {
  return Math.min(60, idleSeconds / 4) * 1000;
}

/**
 * The idle warning's logic, without React: calm until the warning's time, then the warning until the deadline,
 * then a look at the server, which has the last word (the 401 ends it; another tab's use moved the deadline).
 * Input while calm is the user's: reported to the BFF within `reportAfterMs`, and at once should the warning's
 * time come with news unreported, which then does not show. Input while the warning shows does not dismiss it:
 * only its buttons (and Escape) do.
 */
export function createIdleWatch(deps: IdleWatchDeps) {
  const lead = warningLeadMs(deps.idleSeconds);
  let state: IdleWatchState = { phase: 'calm' };
  let timer: ReturnType<typeof setTimeout> | undefined;
  let reportTimer: ReturnType<typeof setTimeout> | undefined;
  let inFlight = 0;
  let stopped = false;
  // Off after a report reached nobody, until the next input: offline, input is not sent again and again.
  let canReport = true;

  const set = (next: IdleWatchState) => {
    state = next;
    deps.onChange(next);
  };
  const end = (why: 'idle' | 'ended') => {
    clearTimeout(timer);
    clearTimeout(reportTimer);
    if (state.phase !== 'ended') set({ phase: 'ended', why });
  };
  /** A check, which the timers wait for; whether the session is still on (an end ends the watch). */
  const ask = async (kind: 'use' | 'look'): Promise<SessionState> => {
    inFlight += 1;
    try {
      const result = await deps.check(kind);
      if (!stopped && (result === 'idle' || result === 'ended')) end(result);
      return result;
    } finally {
      inFlight -= 1;
    }
  };

  async function report() {
    const result = await ask('use');
    if (result === 'unknown') canReport = false;
    evaluate();
  }

  async function confirm() {
    const before = deps.deadline();
    const result = await ask('look');
    if (stopped || state.phase === 'ended') return;
    // Past the deadline the server gave and unreachable: the session is as good as over, and the screen is left.
    if (result === 'unknown') return end('idle');
    const after = deps.deadline();
    if (after !== null && before !== null && after > before) evaluate();
    else timer = setTimeout(evaluate, 1000);
  }

  function evaluate() {
    clearTimeout(timer);
    if (stopped || state.phase === 'ended' || inFlight > 0) return;
    const at = deps.deadline();
    if (at === null) return;
    const now = deps.now();
    if (now >= at) {
      void confirm();
      return;
    }
    if (now >= at - lead) {
      if (state.phase === 'calm' && canReport && deps.hasNews()) {
        void report();
        return;
      }
      if (state.phase !== 'warning' || state.deadline !== at)
        set({ phase: 'warning', deadline: at, unreachable: state.phase === 'warning' && state.unreachable });
      timer = setTimeout(evaluate, at - now);
      return;
    }
    if (state.phase === 'warning') set({ phase: 'calm' });
    timer = setTimeout(evaluate, at - lead - now);
  }

  return {
    /** Looks at the deadline again: at start, when it moved, when the tab shows again (its timers may lag). */
    evaluate,
    /** The user did something (already counted by the session clock, which does not while the warning shows). */
    input() {
      if (stopped || state.phase !== 'calm') return;
      canReport = true;
      reportTimer ??= setTimeout(() => {
        reportTimer = undefined;
        if (!stopped && state.phase === 'calm' && inFlight === 0 && deps.hasNews()) void report();
      }, reportAfterMs(deps.idleSeconds));
    },
    /** "Stay signed in" (or Escape): a request as use; the deadline it brings closes the warning. */
    async stay() {
      if (state.phase !== 'warning') return;
      const result = await ask('use');
      if (stopped || state.phase !== 'warning') return;
      if (result === 'unknown') set({ ...state, unreachable: true });
      else evaluate();
    },
    state: () => state,
    stop() {
      stopped = true;
      clearTimeout(timer);
      clearTimeout(reportTimer);
    },
  };
}

export type IdleWatch = ReturnType<typeof createIdleWatch>;
