import { hkdfSync } from 'node:crypto';

// A fixed, app-specific salt: HKDF stays sound with a constant salt, and every replica must derive the same keys.
const HKDF_SALT = 'payments-dashboard/app-secret/v1';

/**
 * A 32-byte key for one purpose, derived from APP_SECRET with HKDF-SHA256. Each purpose gets an independent
 * key, so a value sealed for one use (a session) can never be accepted as another (a cursor).
 */
export function deriveKey(appSecret: string, purpose: 'session' | 'cursor' | string): Buffer {
  if (appSecret.length === 0) throw new Error('APP_SECRET is empty');
  if (purpose.length === 0) throw new Error('a key purpose is required');
  return Buffer.from(hkdfSync('sha256', appSecret, HKDF_SALT, `payments-dashboard/${purpose}`, 32));
}
