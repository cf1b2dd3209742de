import { randomBytes } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { CURSOR_PATTERN } from '@payments/shared';
import { describe, expect, it } from 'vitest';
import { type CursorBinding, createCursorTokens } from './cursor-token.ts';

const binding: CursorBinding = { user: 'ana', company: 'acme-eu', status: 'COMPLETED', dateFrom: undefined };
const key = randomBytes(32);

describe('cursor tokens', () => {
  it('round-trip the upstream cursor for the same binding, and hide it from the browser', () => {
    const tokens = createCursorTokens(key);
    const token = tokens.wrap('upstream-cursor-XYZ', binding) ?? '';
    expect(CURSOR_PATTERN.test(token)).toBe(true);
    expect(token).not.toContain('upstream-cursor-XYZ');
    expect(Buffer.from(token.slice(3), 'base64url').toString('latin1')).not.toContain('upstream-cursor');
    expect(tokens.open(token, binding)).toEqual({ ok: true, upstreamCursor: 'upstream-cursor-XYZ' });
  });

  it('seal every token under a fresh IV, across many refills of the random pool', () => {
    const tokens = createCursorTokens(key);
    const ivs = new Set<string>();
    for (let i = 0; i < 1_000; i++) {
      const token = tokens.wrap('same-cursor', binding) ?? '';
      ivs.add(Buffer.from(token.slice(3), 'base64url').subarray(0, 12).toString('hex'));
      expect(tokens.open(token, binding)).toEqual({ ok: true, upstreamCursor: 'same-cursor' });
    }
    expect(ivs.size).toBe(1_000);
  });

  it('seal with ciphers made ahead between requests just as with ciphers made on the spot', async () => {
    const tokens = createCursorTokens(key);
    const ivs = new Set<string>();
    for (let i = 0; i < 300; i++) {
      // Two in one turn (the second finds no spare), then a turn for the spare to be made.
      for (const cursor of [`cursor-${i}-a`, `cursor-${i}-b`]) {
        const token = tokens.wrap(cursor, binding) ?? '';
        ivs.add(Buffer.from(token.slice(3), 'base64url').subarray(0, 12).toString('hex'));
        expect(tokens.open(token, binding)).toEqual({ ok: true, upstreamCursor: cursor });
      }
      await nextTurn();
    }
    expect(ivs.size).toBe(600);
  });

  it('open on another instance with the same key', () => {
    const token = createCursorTokens(key).wrap('c', binding) ?? '';
    expect(createCursorTokens(Buffer.from(key)).open(token, binding).ok).toBe(true);
  });

  it.each([
    ['user', { user: 'bob' }],
    ['company', { company: 'acme-us' }],
    ['status', { status: undefined }],
    ['date_from', { dateFrom: '2026-01-01T00:00:00' }],
  ])('refuse a token used with another %s as a mismatch', (_name, change) => {
    const tokens = createCursorTokens(key);
    const token = tokens.wrap('c', binding) ?? '';
    expect(tokens.open(token, { ...binding, ...change })).toEqual({ ok: false, reason: 'mismatch' });
  });

  it('refuse forged, tampered, truncated and foreign-key tokens as invalid', () => {
    const tokens = createCursorTokens(key);
    const token = tokens.wrap('c', binding) ?? '';
    const flipped = `${token.slice(0, 20)}${token[20] === 'A' ? 'B' : 'A'}${token.slice(21)}`;
    for (const bad of ['', 'c1.', 'garbage', flipped, token.slice(0, -4), `x${token}`]) {
      expect(tokens.open(bad, binding)).toEqual({ ok: false, reason: 'invalid' });
    }
    expect(createCursorTokens(randomBytes(32)).open(token, binding)).toEqual({
      ok: false,
      reason: 'invalid',
    });
  });

  it('refuse to wrap an upstream cursor too long to travel as a cursor', () => {
    expect(createCursorTokens(key).wrap('x'.repeat(3_000), binding)).toBeNull();
  });
});
