import { randomBytes } from 'node:crypto';
import type { Context } from 'hono';
import { getSignedCookie, setSignedCookie } from 'hono/cookie';
import { deriveKey } from './keys.ts';
import { sessionCookieOptions } from './sessions.ts';

/** A browser's proof that it signed in as a user before (OWASP's "device cookie"), kept for 180 days. */
const DEVICE_COOKIE_MAX_AGE_SECONDS = 180 * 24 * 3600;

const deviceCookieName = (secure: boolean) => (secure ? '__Host-device' : 'device');

/**
 * Device cookies: `nonce.username`, signed with Hono's signed cookies (HMAC-SHA256) under
 * deriveKey(appSecret, 'device'). A sign-in that presents one for the same user is known to come from a browser
 * that once had the right password, so it is spared the per-user spacing and waits in the trusted lane: a
 * guessing flood does not keep that user out. The nonce names the device, so one that fails too often can lose
 * its standing, and one device has one check in flight at a time.
 */
export function createDeviceCookies(appSecret: string) {
  const key = new Uint8Array(deriveKey(appSecret, 'device'));
  return {
    async issue(c: Context, username: string, secure: boolean): Promise<void> {
      await setSignedCookie(
        c,
        deviceCookieName(secure),
        `${randomBytes(16).toString('base64url')}.${username}`,
        key,
        // Only the sign-in reads it (the __Host- prefix requires path /).
        {
          ...sessionCookieOptions(secure, DEVICE_COOKIE_MAX_AGE_SECONDS),
          path: secure ? '/' : '/api/session',
        },
      );
    },
    /** The device's nonce when the request carries a genuine device cookie of `username`; null otherwise. */
    async deviceOf(c: Context, username: string, secure: boolean): Promise<string | null> {
      const value = await getSignedCookie(c, key, deviceCookieName(secure));
      if (typeof value !== 'string') return null;
      const dot = value.indexOf('.');
      return dot > 0 && value.slice(dot + 1) === username ? value.slice(0, dot) : null;
    },
  };
}

export type DeviceCookies = ReturnType<typeof createDeviceCookies>;
