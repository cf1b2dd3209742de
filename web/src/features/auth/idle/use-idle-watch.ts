import { useCallback, useEffect, useRef, useState } from 'react';
import type * as SessionClock from '../../../lib/session-clock.ts';
import type { SessionState } from '../api/check-session.ts';
import { createIdleWatch, type IdleWatch, type IdleWatchState } from './idle-watch.ts';

/**
 * What the watch uses of the entry's modules, handed in rather than imported: a lazy chunk importing the API
 * client makes the bundler (Rolldown 1.2) move it out of the entry into a chunk of its own, which every first
 * view would then load too (see features/payments/deferred-parts.ts).
 */
export interface IdleWatchPorts {
  clock: Pick<
    typeof SessionClock,
    | 'idleDeadline'
    | 'hasNewsOfUser'
    | 'onUserInput'
    | 'pauseUserInput'
    | 'onIdleDeadline'
    | 'shareIdleDeadline'
  >;
  check: (kind: 'use' | 'look') => Promise<SessionState>;
}

/**
 * The idle watch (idle-watch.ts) of the signed-in area, fed with the user's input, the session clock's deadline
 * (shared by this browser's tabs) and the tab coming back into view; none without a known idle timeout.
 */
export function useIdleWatch(
  idleSeconds: number | undefined,
  { clock, check }: IdleWatchPorts,
  onEnded: (why: 'idle' | 'ended') => void,
) {
  const [state, setState] = useState<IdleWatchState>({ phase: 'calm' });
  const watchRef = useRef<IdleWatch | null>(null);
  const ended = useRef(onEnded);
  ended.current = onEnded;

  useEffect(() => {
    if (idleSeconds === undefined) return;
    const watch = createIdleWatch({
      idleSeconds,
      now: Date.now,
      deadline: clock.idleDeadline,
      hasNews: clock.hasNewsOfUser,
      check,
      onChange: (next) => {
        // While the warning shows, only its buttons answer it: input elsewhere does not count as use.
        clock.pauseUserInput(next.phase === 'warning');
        setState(next);
        if (next.phase === 'ended') ended.current(next.why);
      },
    });
    watchRef.current = watch;
    const unhear = clock.onUserInput(watch.input);
    const shown = () => {
      if (document.visibilityState === 'visible') watch.evaluate();
    };
    document.addEventListener('visibilitychange', shown);
    const unshare = clock.shareIdleDeadline();
    const unlisten = clock.onIdleDeadline(watch.evaluate);
    watch.evaluate();
    return () => {
      unhear();
      clock.pauseUserInput(false);
      document.removeEventListener('visibilitychange', shown);
      unlisten();
      unshare();
      watch.stop();
      watchRef.current = null;
      setState({ phase: 'calm' });
    };
  }, [idleSeconds, clock, check]);

  const stay = useCallback(() => void watchRef.current?.stay(), []);
  return { state, stay };
}
