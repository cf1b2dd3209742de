import { createCipheriv, createDecipheriv, createHmac, createSecretKey, randomBytes } from 'node:crypto';
import { z } from 'zod';
import { decodeBase64url } from './base64url.ts';
import { deriveKey } from './keys.ts';

export interface SessionClaims {
  sub: string;
  sid: string;
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

/** What sealing needs of a user: the name, and the password hash the session is bound to. */
interface SessionUser {
  username: string;
  passwordHash: string;
}

export interface SessionSealer {
  /** A fresh session (new id, new IV) for the user: sign-in always rotates the cookie. */
  seal(user: SessionUser): { value: string; claims: SessionClaims };
  /** The claims of a valid, current session; null for anything else. Never throws. */
  open(value: string): SessionClaims | null;
  /** Whether `claims` were granted on `user`'s current password. */
  grantedOn(claims: SessionClaims, user: SessionUser): boolean;
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

/**
 * v2 added `cred`. A v1 cookie is refused as malformed, so deploying v2 signs everyone out once; during a rolling
 * deploy, a replica still on v1 refuses v2 cookies the same way until it is replaced.
 */
const VERSION = 'v2';
// Authenticated but not encrypted: binds the ciphertext to this format and purpose.
const AAD = Buffer.from('payments-dashboard/session/v2');
const IV_BYTES = 12;
const TAG_BYTES = 16;
const MAX_COOKIE_LENGTH = 4096;
const CLOCK_SKEW_SECONDS = 60;
/** A credential fingerprint: 16 bytes of HMAC-SHA-256 in base64url. */
const CRED_CHARS = 22;

const payloadSchema = z.strictObject({
  v: z.literal(2),
  sub: z.string().min(1).max(256),
  sid: z.string().min(16).max(64),
  iat: z.number().int().nonnegative(),
  exp: z.number().int().positive(),
  cred: z.string().length(CRED_CHARS),
});

/**
 * Stateless sessions: AES-256-GCM under deriveKey(appSecret, 'session'), so any replica sharing APP_SECRET opens
 * what another sealed, and a cookie cannot be read or altered without the secret.
 */
export function createSessionSealer(
  appSecret: string,
  options: { maxAgeSeconds: number; now?: () => number },
): SessionSealer {
  const { maxAgeSeconds } = options;
  if (!Number.isInteger(maxAgeSeconds) || maxAgeSeconds <= 0)
    throw new Error(`session max age must be a positive whole number of seconds, got ${maxAgeSeconds}`);
  // A KeyObject made once: given a raw Buffer, every cipher call first tries it as other key types (~35 µs each).
  const key = createSecretKey(deriveKey(appSecret, 'session'));
  const credentialKey = deriveKey(appSecret, 'session-credential');
  const nowSeconds = () => Math.floor((options.now ?? Date.now)() / 1000);
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

  function seal(user: SessionUser): { value: string; claims: SessionClaims } {
    const iat = nowSeconds();
    const claims: SessionClaims = {
      sub: user.username,
      sid: randomBytes(16).toString('base64url'),
      iat,
      exp: iat + maxAgeSeconds,
      cred: fingerprint(user.passwordHash),
    };
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(AAD);
    const plaintext = Buffer.from(JSON.stringify({ v: 2, ...claims }), 'utf8');
    const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
    const value = [VERSION, iv, ciphertext, cipher.getAuthTag()]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join('.');
    return { value, claims };
  }

  function decrypt(value: string): Buffer | null {
    if (value.length > MAX_COOKIE_LENGTH) return null;
    const parts = value.split('.');
    if (parts.length !== 4 || parts[0] !== VERSION) return null;
    const [iv, ciphertext, tag] = parts.slice(1).map(decodeBase64url);
    if (!iv || iv.length !== IV_BYTES || !tag || tag.length !== TAG_BYTES || !ciphertext?.length) return null;
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
      decipher.setAAD(AAD);
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(ciphertext), decipher.final()]);
    } catch {
      return null; // GCM authentication failed: tampered, or sealed under another secret
    }
  }

  /** The claims sealed in `value` if it is authentic and well formed, whatever the time. */
  function unseal(value: string): SessionClaims | null {
    const plaintext = decrypt(value);
    if (plaintext === null) return null;
    let json: unknown;
    try {
      json = JSON.parse(plaintext.toString('utf8'));
    } catch {
      return null;
    }
    const parsed = payloadSchema.safeParse(json);
    if (!parsed.success) return null;
    const { sub, sid, iat, exp, cred } = parsed.data;
    // A cookie minted under a longer max age than today's setting lives no longer than today's bound allows.
    return Object.freeze({ sub, sid, iat, exp: Math.min(exp, iat + maxAgeSeconds), cred });
  }

  function open(value: string): SessionClaims | null {
    if (typeof value !== 'string') return null;
    const claims = unseal(value);
    if (claims === null) return null;
    const now = nowSeconds();
    if (claims.iat > now + CLOCK_SKEW_SECONDS || claims.exp <= now) return null;
    return claims;
  }

  return {
    seal,
    open,
    // The cookie is authenticated, so its fingerprint cannot be chosen by the browser: a plain comparison suffices.
    grantedOn: (claims, user) => claims.cred === fingerprint(user.passwordHash),
  };
}
