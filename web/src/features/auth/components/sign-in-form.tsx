import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { type ApiError, errorMessage, isApiError } from '../../../lib/api-error.ts';
import { useSignIn } from '../api/sign-in.ts';

/** A sign-in slowed by a guessing attack on the username: when its turn in line should come, in seconds. */
function turnOf(error: ApiError): number | null {
  const turn = error.extra.turn_in_seconds;
  return error.code === 'rate_limited' && typeof turn === 'number' ? turn : null;
}

const about = (seconds: number) =>
  seconds < 90 ? `${Math.max(1, Math.round(seconds))} seconds` : `${Math.round(seconds / 60)} minutes`;

function signInError(error: unknown, askedForCode: boolean): string {
  if (isApiError(error) && error.code === 'invalid_credentials')
    return askedForCode ? 'Wrong username, password or code.' : 'Wrong username or password.';
  return errorMessage(error);
}

/**
 * Username and password; then, when the BFF answers `totp_required`, the code from the user's authenticator
 * app. A sign-in slowed because the username is under a guessing attack says so, when the user's turn should
 * come, and asks again by itself in time to keep the place in line.
 */
export function SignInForm({
  notice,
  initialUsername = '',
  onSignedIn,
}: {
  notice: string | null;
  /** The name of the session that just ended (never its password). */
  initialUsername?: string;
  onSignedIn: () => void;
}) {
  const signIn = useSignIn();
  const [username, setUsername] = useState(initialUsername);
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [askedForCode, setAskedForCode] = useState(false);
  /** The slowed sign-in's turn (ms since the epoch), while the form asks again by itself. */
  const [turnAt, setTurnAt] = useState<number | null>(null);
  const [, setTick] = useState(0);
  const codeInput = useRef<HTMLInputElement>(null);
  const errorId = useId();
  const codeId = useId();
  const codeHintId = useId();

  const send = () =>
    signIn.mutate(
      { username, password, ...(askedForCode ? { totp: code } : {}) },
      {
        onSuccess: onSignedIn,
        onError: (error) => {
          if (!isApiError(error)) return;
          if (error.code === 'totp_required') setAskedForCode(true);
          if (error.code === 'invalid_credentials') setCode('');
          const turn = turnOf(error);
          setTurnAt(turn === null ? null : Date.now() + turn * 1000);
        },
      },
    );

  useEffect(() => {
    if (askedForCode) codeInput.current?.focus();
  }, [askedForCode]);

  // While slowed: asked again when the answer said, which keeps the place in line (a code would be stale by the
  // turn, so a sign-in with one is left to the user), and the countdown redrawn every second.
  const latestSend = useRef(send);
  latestSend.current = send;
  const error = signIn.error;
  useEffect(() => {
    if (turnAt === null || askedForCode || !isApiError(error)) return;
    const again = setTimeout(() => latestSend.current(), (error.retryAfterSeconds ?? 30) * 1000);
    return () => clearTimeout(again);
  }, [turnAt, askedForCode, error]);
  useEffect(() => {
    if (turnAt === null) return;
    const ticker = setInterval(() => setTick((n) => n + 1), 1_000);
    return () => clearInterval(ticker);
  }, [turnAt]);

  /** What the user types ends a wait: she may be correcting what was slowed. */
  const edited =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      set(value);
      setTurnAt(null);
    };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    send();
  };

  const slowed = turnAt !== null;
  const failed = signIn.isError && !(isApiError(error) && error.code === 'totp_required');

  return (
    <form className="sign-in" onSubmit={submit} aria-describedby={failed ? errorId : undefined}>
      <h1>Sign in to Payments</h1>
      {notice && (
        <p className="notice" role="status">
          {notice}
        </p>
      )}
      <label className="field">
        <span>Username</span>
        <input
          name="username"
          autoComplete="username"
          required
          value={username}
          onChange={(e) => edited(setUsername)(e.target.value)}
        />
      </label>
      <label className="field">
        <span>Password</span>
        <input
          name="password"
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(e) => edited(setPassword)(e.target.value)}
        />
      </label>
      {askedForCode && (
        <div className="field">
          <label className="field__label" htmlFor={codeId}>
            Code from your authenticator app
          </label>
          <input
            ref={codeInput}
            id={codeId}
            name="totp"
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9]{6}"
            maxLength={6}
            required
            aria-describedby={codeHintId}
            value={code}
            onChange={(e) => edited(setCode)(e.target.value.replace(/\D/g, ''))}
          />
          <small id={codeHintId} className="field__label">
            6 digits, new every 30 seconds
          </small>
        </div>
      )}
      <p className="notice" role="status" hidden={!askedForCode && !slowed}>
        {slowed
          ? `Many wrong passwords were tried for this username lately, so its sign-ins are slowed and taken in turn. Your turn comes in about ${about((turnAt - Date.now()) / 1000)}. ${askedForCode ? 'Sign in then, with a new code.' : 'Keep this page open: it asks again by itself. An administrator can give you a sign-in code from an authenticator app, which is never slowed.'}`
          : askedForCode
            ? 'This account signs in with a code: enter the 6 digits your authenticator app shows.'
            : ''}
      </p>
      {failed && !slowed && (
        <p id={errorId} className="form-error" role="alert">
          {signInError(error, askedForCode)}
        </p>
      )}
      <button type="submit" className="button button--primary" disabled={signIn.isPending}>
        {signIn.isPending ? 'Signing in…' : 'Sign in'}
      </button>
    </form>
  );
}
