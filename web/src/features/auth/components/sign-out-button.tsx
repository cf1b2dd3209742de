import { useSignOut } from '../api/sign-out.ts';

export function SignOutButton({ username, onSignedOut }: { username: string; onSignedOut: () => void }) {
  const signOut = useSignOut(onSignedOut);
  return (
    <>
      <button
        type="button"
        className="button button--quiet"
        disabled={signOut.pending}
        onClick={() => void signOut.run()}
      >
        Sign out <span className="visually-hidden">{username}</span>
      </button>
      <button
        type="button"
        className="button button--quiet"
        disabled={signOut.pending}
        title="Ends your sessions in every browser and on every device"
        onClick={() => void signOut.run(true)}
      >
        Sign out everywhere
      </button>
    </>
  );
}
