import { useSignOut } from '../api/sign-out.ts';

export function SignOutButton({ username, onSignedOut }: { username: string; onSignedOut: () => void }) {
  const signOut = useSignOut(onSignedOut);
  // Here, or everywhere: every session of the user, in every browser.
  return [false, true].map((everywhere) => (
    <button
      key={String(everywhere)}
      type="button"
      className="button button--quiet"
      disabled={signOut.isPending}
      onClick={() => signOut.mutate(everywhere)}
    >
      Sign out {everywhere ? 'everywhere' : <span className="visually-hidden">{username}</span>}
    </button>
  ));
}
