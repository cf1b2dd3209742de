/**
 * A 401 from any API call means the session is gone. The API client reports it here, with why: `idle` when the
 * BFF said the session ran out of idle time, `ended` for anything else; the signed-in layout listens and sends
 * the user to sign-in with the current URL as `next`.
 */
export type SessionEnd = 'idle' | 'ended';
type Listener = (why: SessionEnd) => void;
const listeners = new Set<Listener>();

export function onSessionExpired(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export function reportSessionExpired(why: SessionEnd): void {
  for (const listener of listeners) listener(why);
}
