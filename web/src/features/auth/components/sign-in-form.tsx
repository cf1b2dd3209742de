import { type FormEvent, useId, useState } from 'react';
import { errorMessage, isApiError } from '../../../lib/api-error.ts';
import { useSignIn } from '../api/sign-in.ts';

function signInError(error: unknown): string {
  if (isApiError(error) && error.code === 'invalid_credentials') return 'Wrong username or password.';
  return errorMessage(error);
}

export function SignInForm({ notice, onSignedIn }: { notice: string | null; onSignedIn: () => void }) {
  const signIn = useSignIn();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const errorId = useId();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    signIn.mutate({ username, password }, { onSuccess: onSignedIn });
  };

  return (
    <form className="sign-in" onSubmit={submit} aria-describedby={signIn.isError ? errorId : undefined}>
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
          onChange={(e) => setUsername(e.target.value)}
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
          onChange={(e) => setPassword(e.target.value)}
        />
      </label>
      {signIn.isError && (
        <p id={errorId} className="form-error" role="alert">
          {signInError(signIn.error)}
        </p>
      )}
      <button type="submit" className="button button--primary" disabled={signIn.isPending}>
        {signIn.isPending ? 'Signing in…' : 'Sign in'}
      </button>
    </form>
  );
}
