import type { AppConfig } from '@payments/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef } from 'react';
import { Navigate, Outlet, useLocation, useNavigate, useOutletContext } from 'react-router';
import { EnvironmentBadge } from '../../components/environment-badge.tsx';
import { PageLoading } from '../../components/page-loading.tsx';
import { paths, signInPath } from '../../config/paths.ts';
import { sessionQueryOptions, useSession } from '../../features/auth/api/get-session.ts';
import { SignOutButton } from '../../features/auth/components/sign-out-button.tsx';
import { idleSignOutState } from '../../features/auth/idle/idle-sign-out.ts';
import { IdleWarning } from '../../features/auth/idle/load-idle-warning.tsx';
import { appConfigQueryOptions, useAppConfig } from '../../lib/app-config.ts';
import { resetSessionClock } from '../../lib/session-clock.ts';
import { onSessionExpired, type SessionEnd } from '../../lib/session-expiry.ts';

/**
 * Everything behind sign-in: draws the header and reacts to the session's end. Its loader (route-loaders.ts) has
 * the session and the config in the cache before it is drawn, or sent the visitor to sign in.
 */
export function SignedInLayout() {
  const session = useSession();
  const signedIn = session.data != null;
  const config = useAppConfig(signedIn);
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const here = `${location.pathname}${location.search}`;

  // The session is over (a 401, or the idle watch at its deadline): to sign-in, back here after. Ended for want
  // of use, the page says so, with the username kept (never the password).
  // Where leave() sent the user, with why: the session check that follows (the cleared cache asks again, and is
  // told "not signed in") must not replace it with a sign-in page that no longer says why.
  const ended = useRef<{ to: string; state?: unknown } | null>(null);
  // Signed in at some point of this mount: a session check that then says "not signed in" is an expiry too (it may
  // answer before the 401 of a data request has called leave()).
  const wasSignedIn = useRef(false);
  if (session.data) wasSignedIn.current = true;
  const leave = useCallback(
    (why: SessionEnd) => {
      const session = queryClient.getQueryData(sessionQueryOptions.queryKey);
      // Without a known session this is a first visit, not an expiry: the session check redirects instead.
      if (!session) return;
      const idleSeconds = queryClient.getQueryData(appConfigQueryOptions.queryKey)?.session_idle_seconds;
      const at = `${window.location.pathname}${window.location.search}`;
      ended.current =
        why === 'idle'
          ? { to: signInPath(at, 'idle'), state: idleSignOutState(session.username, idleSeconds) }
          : { to: signInPath(at, 'expired') };
      queryClient.clear();
      resetSessionClock();
      void navigate(ended.current.to, { replace: true, state: ended.current.state });
    },
    [navigate, queryClient],
  );
  useEffect(() => onSessionExpired(leave), [leave]);

  if (session.isSuccess && session.data === null) {
    const to = ended.current ?? { to: signInPath(here, wasSignedIn.current ? 'expired' : undefined) };
    return <Navigate to={to.to} state={to.state} replace />;
  }
  // between the cache being cleared at the session's end and the page leaving
  if (!config.data || !session.data) return <PageLoading label="Loading the dashboard…" />;

  const signedOut = () => void navigate(signInPath(paths.payments, 'signed-out'));
  return (
    <div className={`app app--${config.data.environment}`}>
      <header className="app__header">
        <a className="skip-link" href="#main">
          Skip to the payments
        </a>
        <h1 className="app__title">Payments</h1>
        <EnvironmentBadge environment={config.data.environment} />
        <span className="app__user">{session.data.username}</span>
        <SignOutButton username={session.data.username} onSignedOut={signedOut} />
      </header>
      <Outlet context={config.data} />
      <IdleWarning idleSeconds={config.data.session_idle_seconds} onEnded={leave} onSignedOut={signedOut} />
    </div>
  );
}

export function useLayoutConfig(): AppConfig {
  return useOutletContext<AppConfig>();
}
