/**
 * What the sign-in page is told, in the history entry's state, when the session ended for want of use: whose it
 * was (the username is prefilled; never the password) and after how long. In the history entry rather than the
 * address, so a reload keeps it, and a copied link does not carry a name.
 */
export interface IdleSignOut {
  username: string;
  idleSeconds: number | null;
}

export function idleSignOutState(username: string, idleSeconds: number | undefined): IdleSignOut {
  return { username, idleSeconds: idleSeconds ?? null };
}

export function readIdleSignOut(state: unknown): IdleSignOut | null {
  if (typeof state !== 'object' || state === null) return null;
  const { username, idleSeconds } = state as Record<string, unknown>;
  if (typeof username !== 'string') return null;
  return { username, idleSeconds: typeof idleSeconds === 'number' ? idleSeconds : null };
}

function span(seconds: number): string {
  if (seconds % 60 !== 0 && seconds < 600) return `${seconds} seconds`;
  const minutes = Math.round(seconds / 60);
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
}

/** The sign-in page's notice after an idle sign-out. */
export function idleNotice(signOut: IdleSignOut | null): string {
  const after = signOut?.idleSeconds ? `after ${span(signOut.idleSeconds)}` : 'after a period';
  return `You were signed out ${after} of inactivity. Sign in again to continue where you were.`;
}
