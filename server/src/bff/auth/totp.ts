import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Time-based one-time passwords (RFC 6238) as every authenticator app reads them from an otpauth:// URI:
 * HMAC-SHA1, 6 digits, 30 s steps, the secret in base32. A few lines over node:crypto, so no library.
 */
const TOTP_DIGITS = 6;
const PERIOD_SECONDS = 30;
/** Codes of the step before and after are accepted too: a phone's clock a little off, a code typed slowly. */
const STEPS_ACCEPTED_AROUND = 1;
const SECRET_BYTES = 20;

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
/** A secret as the users file holds it: RFC 4648 base32, upper case, no padding; 80 bits at least. */
export const TOTP_SECRET_PATTERN = /^[A-Z2-7]{16,128}$/;

export function base32Encode(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let text = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      text += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) text += BASE32[(value << (5 - bits)) & 31];
  return text;
}

export function base32Decode(text: string): Buffer {
  if (!TOTP_SECRET_PATTERN.test(text)) throw new Error('not a base32 TOTP secret');
  let bits = 0;
  let value = 0;
  const bytes: number[] = [];
  for (const char of text) {
    value = ((value << 5) | BASE32.indexOf(char)) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(bytes);
}

/** RFC 4226: the code of `counter` under `key`. */
export function hotp(key: Uint8Array, counter: number, digits = TOTP_DIGITS): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac('sha1', key).update(message).digest();
  const offset = (mac[mac.length - 1] as number) & 0xf;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** digits).padStart(digits, '0');
}

/** The time step of `timeMs` (RFC 6238's T, with T0 = 0). */
export const totpStep = (timeMs: number) => Math.floor(timeMs / 1000 / PERIOD_SECONDS);

/** RFC 6238: the code at `timeMs`. */
export const totpCode = (key: Uint8Array, timeMs: number, digits = TOTP_DIGITS) =>
  hotp(key, totpStep(timeMs), digits);

/** The step whose code `code` is, within one step of `timeMs`; null when it is none of them. */
export function matchingStep(secret: string, code: string, timeMs: number): number | null {
  if (!/^\d+$/.test(code) || code.length !== TOTP_DIGITS) return null;
  const key = base32Decode(secret);
  const given = Buffer.from(code);
  const now = totpStep(timeMs);
  let found: number | null = null;
  // Every candidate is compared, in constant time, whatever matched first.
  for (let step = now - STEPS_ACCEPTED_AROUND; step <= now + STEPS_ACCEPTED_AROUND; step++)
    if (timingSafeEqual(given, Buffer.from(hotp(key, step)))) found ??= step;
  return found;
}

export function newTotpSecret(): string {
  return base32Encode(randomBytes(SECRET_BYTES));
}

/** The URI an authenticator app takes (as a QR code): Key Uri Format, with the issuer in label and parameter. */
export function otpauthUri(secret: string, username: string, issuer = 'Payments'): string {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(username)}`;
  const query = new URLSearchParams({
    secret,
    issuer,
    algorithm: 'SHA1',
    digits: String(TOTP_DIGITS),
    period: String(PERIOD_SECONDS),
  });
  return `otpauth://totp/${label}?${query}`;
}
