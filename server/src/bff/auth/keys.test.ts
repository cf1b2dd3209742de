import { describe, expect, it } from 'vitest';
import { deriveKey } from './keys.ts';

describe('deriveKey', () => {
  it('gives the same 32-byte key for the same secret and purpose, on every call', () => {
    const a = deriveKey('app secret', 'session');
    expect(a).toHaveLength(32);
    expect(deriveKey('app secret', 'session').equals(a)).toBe(true);
  });

  it('gives independent keys per purpose and per secret', () => {
    const session = deriveKey('app secret', 'session');
    expect(deriveKey('app secret', 'cursor').equals(session)).toBe(false);
    expect(deriveKey('other secret', 'session').equals(session)).toBe(false);
  });

  it('refuses an empty secret or purpose', () => {
    expect(() => deriveKey('', 'session')).toThrow(/APP_SECRET/);
    expect(() => deriveKey('app secret', '')).toThrow(/purpose/);
  });
});
