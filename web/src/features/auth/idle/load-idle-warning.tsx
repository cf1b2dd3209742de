import { useEffect, useState } from 'react';
import { afterFirstView } from '../../../lib/first-view.ts';
import * as clock from '../../../lib/session-clock.ts';
import { checkSession } from '../api/check-session.ts';
import { useSignOut } from '../api/sign-out.ts';
import type { IdleWatchPorts } from './use-idle-watch.ts';

type Warning = typeof import('./idle-warning.tsx').default;

/** After the first view (lib/first-view.ts): the code never competes with its rows, and comes long before use. */
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
    let timer: ReturnType<typeof setTimeout> | undefined;
    const load = () =>
      import('./idle-warning.tsx').then(
        (module) => live && setWarning(() => module.default),
        () => live && setAttempt((n) => n + 1),
      );
    // the first attempt after the first view (lib/first-view.ts), a retry a while after the failure
    void (attempt === 0 ? afterFirstView : Promise.resolve()).then(() => {
      if (live) timer = setTimeout(load, attempt === 0 ? LOAD_AFTER_MS : RETRY_AFTER_MS);
    });
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
