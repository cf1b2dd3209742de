import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  base32Decode,
  base32Encode,
  hotp,
  matchingStep,
  newTotpSecret,
  otpauthUri,
  TOTP_SECRET_PATTERN,
  totpCode,
} from './totp.ts';

// RFC 6238 appendix B: the SHA-1 key is the ASCII string "12345678901234567890", codes of 8 digits.
const RFC_KEY = Buffer.from('12345678901234567890', 'ascii');

describe('TOTP (RFC 6238)', () => {
  it.each([
    [59, '94287082'],
    [1111111109, '07081804'],
    [1111111111, '14050471'],
    [1234567890, '89005924'],
    [2000000000, '69279037'],
    [20000000000, '65353130'],
  ])('gives the RFC 6238 test vector at T = %i s: %s', (seconds, code) => {
    expect(totpCode(RFC_KEY, seconds * 1000, 8)).toBe(code);
  });

  it.each([
    [0, '755224'],
    [1, '287082'],
    [2, '359152'],
    [9, '520489'],
  ])('gives the RFC 4226 HOTP test vector for counter %i: %s', (counter, code) => {
    expect(hotp(RFC_KEY, counter)).toBe(code);
  });

  it('writes and reads base32 as RFC 4648 does (no padding), for any bytes', () => {
    expect(base32Encode(Buffer.from('foobar'))).toBe('MZXW6YTBOI');
    expect(base32Decode('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ').toString('ascii')).toBe('12345678901234567890');
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 10, maxLength: 64 }), (bytes) => {
        expect(base32Decode(base32Encode(bytes))).toEqual(Buffer.from(bytes));
      }),
    );
    for (const bad of ['', 'short', 'lower-case-secret', 'ABCDEFGHIJKLMNO1', 'ABCDEFGHIJKLMNOP='])
      expect(() => base32Decode(bad), bad).toThrow(/base32/);
  });

  it('accepts the code of the current step and of one step either side, and says which step', () => {
    const secret = newTotpSecret();
    const key = base32Decode(secret);
    const now = Date.UTC(2026, 0, 1, 10, 42, 15);
    const step = Math.floor(now / 30_000);
    expect(matchingStep(secret, totpCode(key, now), now)).toBe(step);
    expect(matchingStep(secret, totpCode(key, now - 30_000), now)).toBe(step - 1);
    expect(matchingStep(secret, totpCode(key, now + 30_000), now)).toBe(step + 1);
    expect(matchingStep(secret, totpCode(key, now - 60_000), now)).toBeNull();
    expect(matchingStep(secret, totpCode(key, now + 60_000), now)).toBeNull();
  });

  it('refuses codes of the wrong shape without throwing', () => {
    const secret = newTotpSecret();
    const now = Date.now();
    const right = totpCode(base32Decode(secret), now);
    for (const bad of [
      '',
      '12345',
      '1234567',
      `${right}0`,
      right.slice(1),
      'abcdef',
      ' 12345',
      '12 345',
      '١٢٣٤٥٦',
    ])
      expect(matchingStep(secret, bad, now), bad).toBeNull();
  });

  it('makes 160-bit secrets, and a URI an authenticator app reads', () => {
    const secret = newTotpSecret();
    expect(secret).toMatch(TOTP_SECRET_PATTERN);
    expect(base32Decode(secret)).toHaveLength(20);
    expect(newTotpSecret()).not.toBe(secret);
    const uri = new URL(otpauthUri(secret, 'ana.smith@acme'));
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.host).toBe('totp');
    expect(decodeURIComponent(uri.pathname)).toBe('/Payments:ana.smith@acme');
    expect(Object.fromEntries(uri.searchParams)).toEqual({
      secret,
      issuer: 'Payments',
      algorithm: 'SHA1',
      digits: '6',
      period: '30',
    });
  });
});
