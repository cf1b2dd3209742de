import IdleWarningDialog from './idle-warning-dialog.tsx';
import { type IdleWatchPorts, useIdleWatch } from './use-idle-watch.ts';

export interface IdleWarningProps {
  /** SESSION_IDLE_TIMEOUT (the app config's `session_idle_seconds`); no warning when unknown. */
  idleSeconds: number | undefined;
  /** The session is over: ran out of idle time (`idle`), or ended otherwise. */
  onEnded: (why: 'idle' | 'ended') => void;
  onSignOut: () => void;
  signingOut: boolean;
  ports: IdleWatchPorts;
}

/**
 * Warns before the session ends for want of use, with "Stay signed in" and "Sign out"; at the end, `onEnded`.
 * A chunk of its own, with its watch and its dialog, loaded after the first view (load-idle-warning.tsx).
 */
export default function IdleWarning({
  idleSeconds,
  onEnded,
  onSignOut,
  signingOut,
  ports,
}: IdleWarningProps) {
  const { state, stay } = useIdleWatch(idleSeconds, ports, onEnded);
  if (state.phase !== 'warning') return null;
  return (
    <IdleWarningDialog
      deadline={state.deadline}
      unreachable={state.unreachable}
      signingOut={signingOut}
      onStay={stay}
      onSignOut={onSignOut}
    />
  );
}
