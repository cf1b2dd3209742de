import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { decodeBase64url } from './base64url.ts';
import { deriveKey } from './keys.ts';

/** A browser's proof that it signed in as a user before (OWASP's "device cookie"), kept for 180 days. */
export const DEVICE_COOKIE_MAX_AGE_SECONDS = 180 * 24 * 3600;

export function deviceCookieName(secure: boolean): string {
  return secure ? '__Host-device' : 'device';
}

/**
 * Device cookies: `base64url(username).nonce.mac`, an HMAC under deriveKey(appSecret, 'device'). A sign-in that
 * presents one for the same user is known to come from a browser that once had the right password, so it is
 * spared the per-user spacing and hashed ahead of anonymous attempts: a guessing flood does not keep that user
 * out. The nonce names the device, so one that fails too often can lose its standing.
 */
export function createDeviceCookies(appSecret: string) {
  const key = deriveKey(appSecret, 'device');
  const mac = (body: string) => createHmac('sha256', key).update(body).digest().subarray(0, 16);
  return {
    issue(username: string): string {
      const body = `${Buffer.from(username, 'utf8').toString('base64url')}.${randomBytes(12).toString('base64url')}`;
      return `${body}.${mac(body).toString('base64url')}`;
    },
    /** The device's nonce when `value` is a genuine device cookie of `username`; null otherwise. */
    deviceOf(value: string | undefined, username: string): string | null {
      if (value === undefined || value.length > 512) return null;
      const parts = value.split('.');
      if (parts.length !== 3) return null;
      const [user = '', nonce = '', tag = ''] = parts;
      const given = decodeBase64url(tag);
      const expected = mac(`${user}.${nonce}`);
      if (given === null || given.length !== expected.length || !timingSafeEqual(given, expected))
        return null;
      return decodeBase64url(user)?.toString('utf8') === username ? nonce : null;
    },
  };
}

export type DeviceCookies = ReturnType<typeof createDeviceCookies>;
