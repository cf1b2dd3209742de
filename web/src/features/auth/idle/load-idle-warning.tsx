import { useEffect, useState } from 'react';
import * as clock from '../../../lib/session-clock.ts';
import { checkSession } from '../api/check-session.ts';
import { useSignOut } from '../api/sign-out.ts';
import type { IdleWatchPorts } from './use-idle-watch.ts';

type Warning = typeof import('./idle-warning.tsx').default;

/** The first view is up by then: the warning's code never competes with its rows, and comes long before use. */
const LOAD_AFTER_MS = 2000;
const RETRY_AFTER_MS = 30_000;
const PORTS: IdleWatchPorts = { clock, check: checkSession };

interface Props {
  /** SESSION_IDLE_TIMEOUT (the app config's `session_idle_seconds`); no warning when unknown. */
  idleSeconds: number | undefined;
  /** The session is over: ran out of idle time (`idle`), or ended otherwise. */
  onEnded: (why: 'idle' | 'ended') => void;
  onSignedOut: () => void;
}

/**
 * The idle warning (idle-warning.tsx), its code fetched a moment after the signed-in area is drawn, as
 * company-switcher.tsx fetches its panel: the first view's script grows by this file only, there is no
 * suspense, and a fetch that fails is tried again later rather than breaking the page (the session's end comes
 * all the same, with the 401 of the next request).
 */
export function IdleWarning({ idleSeconds, onEnded, onSignedOut }: Props) {
  const [Warning, setWarning] = useState<Warning | null>(null);
  const [attempt, setAttempt] = useState(0);
  const signOut = useSignOut(onSignedOut);
  useEffect(() => {
    let live = true;
    const timer = setTimeout(
      () =>
        import('./idle-warning.tsx').then(
          (module) => live && setWarning(() => module.default),
          () => live && setAttempt((n) => n + 1),
        ),
      attempt === 0 ? LOAD_AFTER_MS : RETRY_AFTER_MS,
    );
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [attempt]);
  if (Warning === null) return null;
  return (
    <Warning
      idleSeconds={idleSeconds}
      onEnded={onEnded}
      onSignOut={() => signOut.mutate(false)}
      signingOut={signOut.isPending}
      ports={PORTS}
    />
  );
}
