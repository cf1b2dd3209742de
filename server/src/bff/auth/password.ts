import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { decodeBase64url } from './base64url.ts';

/** scrypt parameters: N (CPU/memory cost, a power of two), r (block size), p (parallelism). */
export interface ScryptCost {
  N: number;
  r: number;
  p: number;
}

/** About 50–100 ms per hash on a current server core, and 32 MiB of memory. */
export const DEFAULT_SCRYPT_COST: ScryptCost = { N: 2 ** 15, r: 8, p: 1 };

const SALT_BYTES = 16;
const KEY_BYTES = 32;
// Bounds for parsing stored hashes: wide enough for cheaper test costs and stronger future ones, narrow enough
// that a damaged or hostile users file cannot make one sign-in allocate gigabytes or run for minutes.
const N_MIN = 2 ** 10;
const N_MAX = 2 ** 20;
const R_MAX = 32;
const P_MAX = 16;
// The per-parameter bounds alone would still allow 4 GiB (N=2^20, r=32): bound memory and work as well.
const MAX_MEMORY_BYTES = 256 * 1024 * 1024;
const MAX_WORK = 2 ** 24; // N·r·p: 64 times the default cost
const DECIMAL = /^[1-9][0-9]{0,9}$/;

export interface ParsedPasswordHash {
  cost: ScryptCost;
  salt: Buffer;
  hash: Buffer;
}

function validCost({ N, r, p }: ScryptCost): boolean {
  return (
    Number.isInteger(N) &&
    N >= N_MIN &&
    N <= N_MAX &&
    (N & (N - 1)) === 0 &&
    Number.isInteger(r) &&
    r >= 1 &&
    r <= R_MAX &&
    Number.isInteger(p) &&
    p >= 1 &&
    p <= P_MAX &&
    128 * N * r <= MAX_MEMORY_BYTES &&
    N * r * p <= MAX_WORK
  );
}

/** Splits `scrypt$N$r$p$<salt>$<hash>`; null when any part is malformed or out of bounds. */
export function parsePasswordHash(stored: string): ParsedPasswordHash | null {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return null;
  const [, n, r, p, saltText, hashText] = parts as [string, string, string, string, string, string];
  if (!DECIMAL.test(n) || !DECIMAL.test(r) || !DECIMAL.test(p)) return null;
  const cost = { N: Number(n), r: Number(r), p: Number(p) };
  if (!validCost(cost)) return null;
  const salt = decodeBase64url(saltText);
  const hash = decodeBase64url(hashText);
  if (salt === null || salt.length < SALT_BYTES || salt.length > 64) return null;
  if (hash === null || hash.length < KEY_BYTES || hash.length > 64) return null;
  return { cost, salt, hash };
}

function derive(password: string, salt: Buffer, keyLength: number, { N, r, p }: ScryptCost): Promise<Buffer> {
  // Node's default maxmem (32 MiB) is just below what N=2^15, r=8 needs; allow exactly what the cost requires.
  const maxmem = 128 * r * (N + p + 2) + 1024 * 1024;
  // NFC so that the same typed password hashes alike whatever the keyboard or OS composed.
  const input = password.normalize('NFC');
  return new Promise((resolve, reject) => {
    scrypt(input, salt, keyLength, { N, r, p, maxmem }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

export async function hashPassword(password: string, options: { cost?: ScryptCost } = {}): Promise<string> {
  const cost = options.cost ?? DEFAULT_SCRYPT_COST;
  if (!validCost(cost)) throw new Error(`scrypt cost out of bounds: N=${cost.N} r=${cost.r} p=${cost.p}`);
  const salt = randomBytes(SALT_BYTES);
  const hash = await derive(password, salt, KEY_BYTES, cost);
  return ['scrypt', cost.N, cost.r, cost.p, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

/** True only when `password` matches; a malformed `stored` value is false, never an exception. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parsePasswordHash(stored);
  if (parsed === null) return false;
  let actual: Buffer;
  try {
    actual = await derive(password, parsed.salt, parsed.hash.length, parsed.cost);
  } catch {
    return false;
  }
  return timingSafeEqual(actual, parsed.hash);
}

/**
 * A well-formed hash that no password matches (its "hash" is random bytes): verifying against it costs what a
 * real verify costs, which is what the sign-in path for unknown users needs.
 */
export function unmatchableHash(cost: ScryptCost = DEFAULT_SCRYPT_COST): string {
  if (!validCost(cost)) throw new Error(`scrypt cost out of bounds: N=${cost.N} r=${cost.r} p=${cost.p}`);
  return [
    'scrypt',
    cost.N,
    cost.r,
    cost.p,
    randomBytes(SALT_BYTES).toString('base64url'),
    randomBytes(KEY_BYTES).toString('base64url'),
  ].join('$');
}
