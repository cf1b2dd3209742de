import { useSignOut } from '../api/sign-out.ts';

export function SignOutButton({ username, onSignedOut }: { username: string; onSignedOut: () => void }) {
  const signOut = useSignOut(onSignedOut);
  return (
    <button
      type="button"
      className="button button--quiet"
      disabled={signOut.pending}
      onClick={() => void signOut.run()}
    >
      Sign out <span className="visually-hidden">{username}</span>
    </button>
  );
}
