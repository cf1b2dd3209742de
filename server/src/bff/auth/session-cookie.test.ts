import { createCipheriv, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { deriveKey } from './keys.ts';
import {
  createSessionSealer,
  SESSION_COOKIE,
  sessionCookieName,
  sessionCookieOptions,
} from './session-cookie.ts';

const SECRET = 'a shared application secret of some length';
const HOUR = 3600;
const ana = { username: 'ana', passwordHash: 'scrypt$16384$8$1$c2FsdA$aGFzaA' };
const bo = { username: 'bo', passwordHash: 'scrypt$16384$8$1$c2FsdDI$aGFzaDI' };

function flipBitInSegment(value: string, segment: number): string {
  const parts = value.split('.');
  const bytes = Buffer.from(parts[segment] as string, 'base64url');
  bytes[bytes.length >> 1] = (bytes[bytes.length >> 1] as number) ^ 0x01;
  parts[segment] = bytes.toString('base64url');
  return parts.join('.');
}

describe('session sealer', () => {
  it('opens what it sealed, with the claims it issued', () => {
    const now = Date.UTC(2026, 0, 1);
    const sealer = createSessionSealer(SECRET, { maxAgeSeconds: HOUR, now: () => now });
    const { value, claims } = sealer.seal(ana);
    expect(value).toMatch(/^v2\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/);
    expect(claims).toMatchObject({ sub: 'ana', iat: now / 1000, exp: now / 1000 + HOUR });
    expect(sealer.open(value)).toEqual(claims);
  });

  it('encrypts: the username cannot be read from the cookie', () => {
    const { value } = createSessionSealer(SECRET, { maxAgeSeconds: HOUR }).seal({
      ...ana,
      username: 'visible-name',
    });
    const decoded = value
      .split('.')
      .map((part) => Buffer.from(part, 'base64url').toString('latin1'))
      .join('');
    expect(decoded).not.toContain('visible-name');
  });

  it("binds the session to the user's password: granted on the hash it was sealed with, on any replica", () => {
    const sealer = createSessionSealer(SECRET, { maxAgeSeconds: HOUR });
    const replica = createSessionSealer(SECRET, { maxAgeSeconds: HOUR });
    const claims = replica.open(sealer.seal(ana).value);
    if (claims === null) throw new Error('the replica refused the cookie');
    expect(sealer.grantedOn(claims, ana)).toBe(true);
    expect(replica.grantedOn(claims, ana)).toBe(true);
    expect(replica.grantedOn(claims, { ...ana, passwordHash: 'scrypt$16384$8$1$c2FsdA$bmV3' })).toBe(false);
    // Under another secret the fingerprint differs, so it tells nothing about the hash across deployments.
    const foreign = createSessionSealer('another secret of some length, too', { maxAgeSeconds: HOUR });
    expect(foreign.grantedOn(claims, ana)).toBe(false);
  });

  it('rotates: each seal gives a new session id and a new cookie value', () => {
    const sealer = createSessionSealer(SECRET, { maxAgeSeconds: HOUR });
    const a = sealer.seal(ana);
    const b = sealer.seal(ana);
    expect(a.value).not.toBe(b.value);
    expect(a.claims.sid).not.toBe(b.claims.sid);
  });

  it('refuses a cookie with any bit flipped in the IV, ciphertext or tag', () => {
    const sealer = createSessionSealer(SECRET, { maxAgeSeconds: HOUR });
    const { value } = sealer.seal(ana);
    for (const segment of [1, 2, 3]) expect(sealer.open(flipBitInSegment(value, segment))).toBeNull();
    expect(sealer.open(value.replace(/^v2/, 'v3'))).toBeNull();
    expect(sealer.open(value)).not.toBeNull();
  });

  it('refuses truncated, reordered and garbage values without throwing', () => {
    const sealer = createSessionSealer(SECRET, { maxAgeSeconds: HOUR });
    const { value } = sealer.seal(ana);
    const [version, iv, ciphertext, tag] = value.split('.') as [string, string, string, string];
    const bad = [
      value.slice(0, -1),
      value.slice(0, value.lastIndexOf('.')),
      [version, iv, tag, ciphertext].join('.'),
      [version, iv, '', tag].join('.'),
      `${value}.`,
      `${value}=`,
      '',
      'v2...',
      'garbage',
      'v2.%%%.%%%.%%%',
      `${value}${'A'.repeat(5000)}`,
      undefined as unknown as string,
    ];
    for (const candidate of bad) expect(sealer.open(candidate), String(candidate)).toBeNull();
  });

  it('refuses a v1 cookie, which carries no password fingerprint: v2 signs everyone out once', () => {
    const iat = Math.floor(Date.now() / 1000);
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', deriveKey(SECRET, 'session'), iv, { authTagLength: 16 });
    cipher.setAAD(Buffer.from('payments-dashboard/session/v1'));
    const payload = { v: 1, sub: 'ana', sid: randomBytes(16).toString('base64url'), iat, exp: iat + HOUR };
    const sealed = Buffer.concat([cipher.update(JSON.stringify(payload)), cipher.final()]);
    const v1 = ['v1', iv, sealed, cipher.getAuthTag()]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join('.');
    expect(createSessionSealer(SECRET, { maxAgeSeconds: HOUR }).open(v1)).toBeNull();
  });

  it('refuses a cookie sealed under another secret', () => {
    const { value } = createSessionSealer('another secret', { maxAgeSeconds: HOUR }).seal(ana);
    expect(createSessionSealer(SECRET, { maxAgeSeconds: HOUR }).open(value)).toBeNull();
  });

  it('a cookie sealed by one instance opens on another that shares the secret', () => {
    const first = createSessionSealer(SECRET, { maxAgeSeconds: HOUR });
    const second = createSessionSealer(SECRET, { maxAgeSeconds: HOUR });
    const fromFirst = first.seal(ana);
    const fromSecond = second.seal(bo);
    expect(second.open(fromFirst.value)).toEqual(fromFirst.claims);
    expect(first.open(fromSecond.value)).toEqual(fromSecond.claims);
  });

  it('refuses a cookie once it has expired, and accepts it just before', () => {
    let now = Date.UTC(2026, 0, 1);
    const sealer = createSessionSealer(SECRET, { maxAgeSeconds: HOUR, now: () => now });
    const { value } = sealer.seal(ana);
    now += (HOUR - 1) * 1000;
    expect(sealer.open(value)).not.toBeNull();
    now += 1000;
    expect(sealer.open(value)).toBeNull();
  });

  it('bounds an old cookie by today’s max age when the setting was shortened', () => {
    let now = Date.UTC(2026, 0, 1);
    const { value } = createSessionSealer(SECRET, { maxAgeSeconds: 8 * HOUR, now: () => now }).seal(ana);
    const shorter = createSessionSealer(SECRET, { maxAgeSeconds: HOUR, now: () => now });
    expect(shorter.open(value)?.exp).toBe(now / 1000 + HOUR);
    now += 2 * HOUR * 1000;
    expect(shorter.open(value)).toBeNull();
  });

  it('refuses a cookie issued more than 60 s in the future, tolerating smaller clock skew', () => {
    const now = Date.UTC(2026, 0, 1);
    const opener = createSessionSealer(SECRET, { maxAgeSeconds: HOUR, now: () => now });
    const ahead = (seconds: number) =>
      createSessionSealer(SECRET, { maxAgeSeconds: HOUR, now: () => now + seconds * 1000 }).seal(ana).value;
    expect(opener.open(ahead(30))).not.toBeNull();
    expect(opener.open(ahead(120))).toBeNull();
  });

  it('refuses a non-positive max age', () => {
    expect(() => createSessionSealer(SECRET, { maxAgeSeconds: 0 })).toThrow(/max age/);
  });
});

describe('session cookie attributes', () => {
  it('uses the __Host- name over HTTPS and a plain name over http', () => {
    expect(sessionCookieName(true)).toBe(SESSION_COOKIE);
    expect(SESSION_COOKIE.startsWith('__Host-')).toBe(true);
    expect(sessionCookieName(false)).not.toMatch(/^__(Host|Secure)-/);
  });

  it('is HttpOnly, SameSite=Strict, path /, Secure only over HTTPS, with the given max age', () => {
    expect(sessionCookieOptions(true, HOUR)).toEqual({
      httpOnly: true,
      secure: true,
      sameSite: 'Strict',
      path: '/',
      maxAge: HOUR,
    });
    expect(sessionCookieOptions(false, HOUR).secure).toBe(false);
  });
});
