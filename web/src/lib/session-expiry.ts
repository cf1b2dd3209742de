/**
 * A 401 from any API call means the session is gone. The API client reports it here; the signed-in layout
 * listens and sends the user to sign-in with the current URL as `next`.
 */
type Listener = () => void;
const listeners = new Set<Listener>();

export function onSessionExpired(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export function reportSessionExpired(): void {
  for (const listener of listeners) listener();
}
