import type { SharedState } from '../../shared-state/index.ts';
import type { SessionClaims } from './session-cookie.ts';

/**
 * The server side of a session: the sealed cookie proves who signed in, and this record, kept in the shared
 * state, says the session is still on. Signing out deletes it, on every replica at once; it lapses after
 * `idleMs` without a request; "sign out everywhere" deletes every record of the user.
 */
export function createSessionRecords(
  state: SharedState,
  { idleMs, maxAgeMs }: { idleMs: number; maxAgeMs: number },
) {
  const recordKey = (sid: string) => `session:${sid}`;
  const userKey = (user: string) => `sessions:${user}`;
  return {
    async begin(claims: SessionClaims): Promise<void> {
      await state.set(recordKey(claims.sid), claims.sub, idleMs);
      await state.addMember(userKey(claims.sub), claims.sid, maxAgeMs);
    },
    /**
     * Whether the session is still on. A request the user made restarts the idle time; a background refresh
     * (`touch: false`, the list's freshness poll) does not, or an open tab would never go idle.
     */
    async isOn(claims: SessionClaims, { touch }: { touch: boolean }): Promise<boolean> {
      const owner = touch
        ? await state.getAndTouch(recordKey(claims.sid), idleMs)
        : await state.get(recordKey(claims.sid));
      return owner === claims.sub;
    },
    async end(claims: SessionClaims): Promise<void> {
      await state.delete(recordKey(claims.sid));
      await state.removeMember(userKey(claims.sub), claims.sid);
    },
    /** Ends every session of `user`, on every replica. */
    async endAll(user: string): Promise<void> {
      const sids = await state.members(userKey(user));
      await state.delete(...sids.map(recordKey), userKey(user));
    },
  };
}

export type SessionRecords = ReturnType<typeof createSessionRecords>;
