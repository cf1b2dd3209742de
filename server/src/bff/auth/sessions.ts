import { createHmac, randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { SharedState } from '../../shared-state/index.ts';
import { deriveKey } from './keys.ts';

export interface SessionClaims {
  /** The session's name in the shared state: a keyed hash of the cookie's id, never the id itself. */
  sid: string;
  sub: string;
  /** Issued at, seconds since the epoch. */
  iat: number;
  /** Expires at, seconds since the epoch. */
  exp: number;
  /**
   * The password the session was granted on: a keyed fingerprint of the user's password hash. When the password
   * changes, every session granted before no longer matches and ends.
   */
  cred: string;
}

/** What a session needs of a user: the name, and the password hash the session is bound to. */
export interface SessionUser {
  username: string;
  passwordHash: string;
}

/** With HTTPS the `__Host-` prefix pins the cookie to this host, path `/`, Secure; browsers refuse it on http. */
export const SESSION_COOKIE = '__Host-session';
const PLAIN_HTTP_SESSION_COOKIE = 'session';

export function sessionCookieName(secure: boolean): string {
  return secure ? SESSION_COOKIE : PLAIN_HTTP_SESSION_COOKIE;
}

/** Attributes for the session cookie, shaped for Hono's `setCookie`. */
export function sessionCookieOptions(secure: boolean, maxAgeSeconds: number) {
  return {
    httpOnly: true,
    secure,
    // Strict: the SPA's HTML needs no cookie, and every /api call is same-site, so cross-site sends have no use.
    sameSite: 'Strict',
    path: '/',
    maxAge: maxAgeSeconds,
  } as const;
}

/** 256 random bits, base64url: the whole cookie. */
const ID_BYTES = 32;
const ID_PATTERN = /^[A-Za-z0-9_-]{43}$/;
const CLOCK_SKEW_SECONDS = 60;

const recordSchema = z.strictObject({
  sub: z.string().min(1).max(256),
  iat: z.number().int().nonnegative(),
  exp: z.number().int().positive(),
  cred: z.string().length(22),
});

function readRecord(text: string): z.output<typeof recordSchema> | null {
  try {
    const parsed = recordSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * Sessions: the cookie holds an opaque random id and nothing else; who signed in, when, until when and on which
 * password live in a record in the shared state, so sign-out, "sign out everywhere" and the idle timeout hold on
 * every replica at once. The record is named by an HMAC of the id under deriveKey(APP_SECRET, 'session-id'): a
 * dump of the store yields no cookie, and a deployment with another secret sharing the store finds none of this
 * one's sessions.
 */
export function createSessions(
  state: SharedState,
  appSecret: string,
  options: { maxAgeSeconds: number; idleSeconds: number; now?: () => number },
) {
  const { maxAgeSeconds, idleSeconds } = options;
  if (!Number.isInteger(maxAgeSeconds) || maxAgeSeconds <= 0)
    throw new Error(`session max age must be a positive whole number of seconds, got ${maxAgeSeconds}`);
  const idKey = deriveKey(appSecret, 'session-id');
  const credentialKey = deriveKey(appSecret, 'session-credential');
  const nowSeconds = () => Math.floor((options.now ?? Date.now)() / 1000);
  const idleMs = idleSeconds * 1000;
  const recordKey = (sid: string) => `session:${sid}`;
  // Lives the max age and is deleted with the record on sign-out: a record gone while this is still there ran
  // out of idle time, which the 401 then says (the store has no word for why a key expired).
  const begunKey = (sid: string) => `session-begun:${sid}`;
  const userKey = (user: string) => `sessions:${user}`;
  const sidOf = (id: string) => createHmac('sha256', idKey).update(id).digest('base64url');
  // Per password hash, computed once (one entry per user of the users file): every request checks its session
  // against the user's current password.
  const fingerprints = new Map<string, string>();
  const fingerprint = (passwordHash: string) => {
    let cred = fingerprints.get(passwordHash);
    if (cred === undefined) {
      cred = createHmac('sha256', credentialKey)
        .update(passwordHash)
        .digest()
        .subarray(0, 16)
        .toString('base64url');
      fingerprints.set(passwordHash, cred);
    }
    return cred;
  };

  return {
    /** A new session for the user, under a new id: sign-in always rotates the cookie. */
    async begin(user: SessionUser): Promise<{ cookie: string; claims: SessionClaims }> {
      const cookie = randomBytes(ID_BYTES).toString('base64url');
      const iat = nowSeconds();
      const claims = {
        sid: sidOf(cookie),
        sub: user.username,
        iat,
        exp: iat + maxAgeSeconds,
        cred: fingerprint(user.passwordHash),
      };
      const { sid, ...record } = claims;
      await state.set(recordKey(sid), JSON.stringify(record), Math.min(idleSeconds, maxAgeSeconds) * 1000);
      await state.set(begunKey(sid), '1', maxAgeSeconds * 1000);
      await state.addMember(userKey(user.username), sid, maxAgeSeconds * 1000);
      return { cookie, claims };
    },

    /**
     * The claims of the session the cookie names, if it is still on and within its max age; null for anything
     * else. A request the user made restarts the idle time; a background refresh (`touch: false`, the list's
     * freshness poll) does not, or an open tab would never go idle.
     */
    async open(cookie: string | undefined, { touch }: { touch: boolean }): Promise<SessionClaims | null> {
      if (typeof cookie !== 'string' || !ID_PATTERN.test(cookie)) return null;
      const sid = sidOf(cookie);
      const text = touch ? await state.getAndTouch(recordKey(sid), idleMs) : await state.get(recordKey(sid));
      const record = text === null ? null : readRecord(text);
      if (record === null) return null;
      // A session begun under a longer max age than today's setting lives no longer than today's bound allows.
      const exp = Math.min(record.exp, record.iat + maxAgeSeconds);
      const now = nowSeconds();
      if (record.iat > now + CLOCK_SKEW_SECONDS || exp <= now) return null;
      return Object.freeze({ sid, ...record, exp });
    },

    /**
     * Seconds the session stays on without use, as of this request: the whole idle time after a request that
     * touched it, what is left of it after one that did not.
     */
    async idleLeft(claims: SessionClaims, { touched }: { touched: boolean }): Promise<number> {
      const ms = touched ? idleMs : await state.timeLeft(recordKey(claims.sid));
      return Math.max(0, Math.floor(ms / 1000));
    },

    /**
     * Whether the session the cookie named (one `open` refused) ran out of idle time, rather than being signed
     * out, ended everywhere, past its max age or never begun.
     */
    async endedIdle(cookie: string | undefined): Promise<boolean> {
      if (typeof cookie !== 'string' || !ID_PATTERN.test(cookie)) return false;
      const sid = sidOf(cookie);
      if ((await state.get(recordKey(sid))) !== null) return false;
      return (await state.get(begunKey(sid))) !== null;
    },

    /** Whether `claims` were granted on `user`'s current password. */
    grantedOn: (claims: SessionClaims, user: SessionUser) => claims.cred === fingerprint(user.passwordHash),

    async end(claims: SessionClaims): Promise<void> {
      await state.delete(recordKey(claims.sid), begunKey(claims.sid));
      await state.removeMember(userKey(claims.sub), claims.sid);
    },

    /** Ends every session of `user`, on every replica. */
    async endAll(user: string): Promise<void> {
      const sids = await state.members(userKey(user));
      await state.delete(...sids.map(recordKey), ...sids.map(begunKey), userKey(user));
    },
  };
}

export type Sessions = ReturnType<typeof createSessions>;
