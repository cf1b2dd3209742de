import { Navigate, useLocation, useNavigate, useSearchParams } from 'react-router';
import { safeNext } from '../../config/paths.ts';
import { useSession } from '../../features/auth/api/get-session.ts';
import { SignInForm } from '../../features/auth/components/sign-in-form.tsx';
import { idleNotice, readIdleSignOut } from '../../features/auth/idle/idle-sign-out.ts';
import { usePageTitle } from '../../lib/page-title.ts';

const NOTICES: Record<string, string> = {
  expired: 'Your session has ended. Sign in again to continue where you were.',
  'signed-out': 'You are signed out.',
};

export default function SignInRoute() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const next = safeNext(params.get('next'));
  const session = useSession();
  const location = useLocation();
  usePageTitle(['Sign in']);
  if (session.data) return <Navigate to={next} replace />;
  const reason = params.get('reason') ?? '';
  // After an idle sign-out, the history entry says whose session it was and after how long (idle-sign-out.ts).
  const idle = reason === 'idle' ? readIdleSignOut(location.state) : null;
  return (
    <main className="sign-in-page">
      <SignInForm
        notice={reason === 'idle' ? idleNotice(idle) : (NOTICES[reason] ?? null)}
        initialUsername={idle?.username ?? ''}
        onSignedIn={() => void navigate(next, { replace: true })}
      />
    </main>
  );
}
