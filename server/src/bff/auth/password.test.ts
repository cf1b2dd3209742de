import { describe, expect, it } from 'vitest';
import { FAST_TEST_COST } from '../testing/test-costs.ts';
import {
  DEFAULT_SCRYPT_COST,
  hashPassword,
  parsePasswordHash,
  unmatchableHash,
  verifyPassword,
} from './password.ts';

describe('password hashing', () => {
  it('verifies the password it hashed and rejects a wrong one', async () => {
    const stored = await hashPassword('correct horse battery', { cost: FAST_TEST_COST });
    expect(stored).toMatch(/^scrypt\$1024\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(await verifyPassword('correct horse battery', stored)).toBe(true);
    expect(await verifyPassword('correct horse batterY', stored)).toBe(false);
    expect(await verifyPassword('', stored)).toBe(false);
  });

  it('salts: the same password hashes differently each time', async () => {
    const a = await hashPassword('same password', { cost: FAST_TEST_COST });
    const b = await hashPassword('same password', { cost: FAST_TEST_COST });
    expect(a).not.toBe(b);
  });

  it('uses N=2^15 r=8 p=1 by default, within memory limits', async () => {
    const stored = await hashPassword('default cost password');
    expect(stored.startsWith(`scrypt$${DEFAULT_SCRYPT_COST.N}$8$1$`)).toBe(true);
    expect(DEFAULT_SCRYPT_COST.N).toBe(32768);
    expect(await verifyPassword('default cost password', stored)).toBe(true);
  });

  it('treats composed and decomposed spellings of a password alike (NFC)', async () => {
    const stored = await hashPassword('caf\u00e9 au lait', { cost: FAST_TEST_COST });
    expect(await verifyPassword('cafe\u0301 au lait', stored)).toBe(true);
  });

  it('answers false, without throwing, for malformed stored hashes', async () => {
    const good = await hashPassword('pw', { cost: FAST_TEST_COST });
    const [, n, r, p, salt, hash] = good.split('$') as [string, string, string, string, string, string];
    const malformed = [
      '',
      'not a hash',
      `bcrypt$${n}$${r}$${p}$${salt}$${hash}`,
      `scrypt$${n}$${r}$${p}$${salt}`,
      `scrypt$${n}$${r}$${p}$${salt}$${hash}$extra`,
      `scrypt$1000$${r}$${p}$${salt}$${hash}`, // N not a power of two
      `scrypt$${2 ** 30}$${r}$${p}$${salt}$${hash}`, // N beyond the bound
      `scrypt$${2 ** 20}$32$1$${salt}$${hash}`, // each part in bounds, but 4 GiB of memory
      `scrypt$${2 ** 18}$8$16$${salt}$${hash}`, // each part in bounds, but 128 times the default work
      `scrypt$0${n}$${r}$${p}$${salt}$${hash}`, // non-canonical number
      `scrypt$${n}$0$${p}$${salt}$${hash}`,
      `scrypt$${n}$${r}$99$${salt}$${hash}`,
      `scrypt$${n}$${r}$${p}$${salt}=$${hash}`, // padding is not base64url
      `scrypt$${n}$${r}$${p}$c2hvcnQ$${hash}`, // salt too short
      `scrypt$${n}$${r}$${p}$${salt}$${hash.slice(0, 20)}`, // hash too short
      `scrypt$${n}$${r}$${p}$${salt}$${hash.slice(0, -1)}!`,
    ];
    for (const stored of malformed) {
      expect(parsePasswordHash(stored), stored).toBeNull();
      expect(await verifyPassword('pw', stored), stored).toBe(false);
    }
  });

  it('an unmatchable hash is well-formed and matches no password', async () => {
    const dummy = unmatchableHash(FAST_TEST_COST);
    expect(parsePasswordHash(dummy)?.cost).toEqual(FAST_TEST_COST);
    expect(await verifyPassword('', dummy)).toBe(false);
    expect(await verifyPassword('anything', dummy)).toBe(false);
  });
});
