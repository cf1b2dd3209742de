import { safeNext } from '../../config/paths.ts';
import { useSession } from '../../features/auth/api/get-session.ts';
import { SignInForm } from '../../features/auth/components/sign-in-form.tsx';
import { Navigate, useNavigate, useSearchParams } from '../../lib/history-router.tsx';

const NOTICES: Record<string, string> = {
  expired: 'Your session has ended. Sign in again to continue where you were.',
  'signed-out': 'You are signed out.',
};

export default function SignInRoute() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const next = safeNext(params.get('next'));
  const session = useSession();
  if (session.data) return <Navigate to={next} replace />;
  return (
    <main className="sign-in-page">
      <SignInForm
        notice={NOTICES[params.get('reason') ?? ''] ?? null}
        onSignedIn={() => navigate(next, { replace: true })}
      />
    </main>
  );
}
