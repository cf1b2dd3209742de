import { type SyntheticEvent, useEffect, useId, useRef, useState } from 'react';

/** "1 min 5 s", "45 s". */
export function timeLeftText(seconds: number): string {
  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  if (minutes === 0) return `${rest} s`;
  return rest === 0 ? `${minutes} min` : `${minutes} min ${rest} s`;
}

/** What the live region says as the end nears: only a few times, not every second. */
function announcement(seconds: number): string {
  if (seconds > 60) return '';
  if (seconds > 30) return 'About a minute left.';
  if (seconds > 10) return '30 seconds left.';
  return '10 seconds left.';
}

function useSecondsLeft(deadline: number): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const ticker = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(ticker);
  }, []);
  return Math.max(0, Math.ceil((deadline - now) / 1000));
}

interface Props {
  /** When the session ends (epoch ms). */
  deadline: number;
  unreachable: boolean;
  signingOut: boolean;
  onStay: () => void;
  onSignOut: () => void;
}

/**
 * The idle warning: a modal alert dialog (the rest of the page inert), labelled by its title and described by the
 * countdown, "Stay signed in" focused; Escape stays too. Focus goes back where it was when it closes.
 */
export default function IdleWarningDialog({ deadline, unreachable, signingOut, onStay, onSignOut }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  const stayButton = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const textId = useId();
  const left = useSecondsLeft(deadline);

  useEffect(() => {
    const element = dialog.current;
    const before = document.activeElement;
    if (element && !element.open) element.showModal();
    stayButton.current?.focus();
    return () => {
      element?.close();
      if (before instanceof HTMLElement && before.isConnected) before.focus();
    };
  }, []);

  const cancel = (event: SyntheticEvent) => {
    event.preventDefault();
    onStay();
  };

  return (
    <dialog
      ref={dialog}
      role="alertdialog"
      className="idle-warning"
      aria-labelledby={titleId}
      aria-describedby={textId}
      onCancel={cancel}
    >
      <h2 id={titleId}>Your session is about to end</h2>
      <p id={textId}>
        You have not used the dashboard for a while. For your security you will be signed out in{' '}
        <strong className="idle-warning__time">{timeLeftText(left)}</strong>.
      </p>
      <p className="visually-hidden" role="status">
        {announcement(left)}
      </p>
      {unreachable && (
        <p className="form-error" role="alert">
          The dashboard cannot reach its server. Check the connection and try again.
        </p>
      )}
      <div className="idle-warning__actions">
        <button ref={stayButton} type="button" className="button button--primary" onClick={onStay}>
          Stay signed in
        </button>
        <button type="button" className="button" disabled={signingOut} onClick={onSignOut}>
          Sign out
        </button>
      </div>
    </dialog>
  );
}
