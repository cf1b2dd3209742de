import { randomBytes } from 'node:crypto';
import { CURSOR_PATTERN } from '@payments/shared';
import { describe, expect, it } from 'vitest';
import { type CursorBinding, createListCursors } from './list-cursor.ts';

const binding: CursorBinding = { user: 'ana', company: 'acme-eu', status: 'COMPLETED', date_from: undefined };
const key = randomBytes(32);

describe('list cursors', () => {
  it('round-trip the upstream cursor for the same binding, and hide it from the browser', () => {
    const tokens = createListCursors(key);
    const token = tokens.seal('upstream-cursor-XYZ', binding) ?? '';
    expect(CURSOR_PATTERN.test(token)).toBe(true);
    expect(token).not.toContain('upstream-cursor-XYZ');
    expect(Buffer.from(token.slice(3), 'base64url').toString('latin1')).not.toContain('upstream-cursor');
    expect(tokens.open(token, binding)).toEqual({ ok: true, upstreamCursor: 'upstream-cursor-XYZ' });
  });

  it('seal every token under a fresh IV', () => {
    const tokens = createListCursors(key);
    const ivs = new Set<string>();
    for (let i = 0; i < 1_000; i++) {
      const token = tokens.seal('same-cursor', binding) ?? '';
      ivs.add(Buffer.from(token.slice(3), 'base64url').subarray(0, 12).toString('hex'));
      expect(tokens.open(token, binding)).toEqual({ ok: true, upstreamCursor: 'same-cursor' });
    }
    expect(ivs.size).toBe(1_000);
  });

  it('open on another instance with the same key', () => {
    const token = createListCursors(key).seal('c', binding) ?? '';
    expect(createListCursors(Buffer.from(key)).open(token, binding).ok).toBe(true);
  });

  it.each([
    ['user', { user: 'bob' }],
    ['company', { company: 'acme-us' }],
    ['status', { status: undefined }],
    ['date_from', { date_from: '2026-01-01T00:00:00' }],
    ['date_to', { date_to: '2026-01-31T23:59:59' }],
  ])('refuse a token used with another %s as a mismatch', (_name, change) => {
    const tokens = createListCursors(key);
    const token = tokens.seal('c', binding) ?? '';
    expect(tokens.open(token, { ...binding, ...change })).toEqual({ ok: false, reason: 'mismatch' });
  });

  it('refuse forged, tampered, truncated and foreign-key tokens as invalid', () => {
    const tokens = createListCursors(key);
    const token = tokens.seal('c', binding) ?? '';
    const flipped = `${token.slice(0, 20)}${token[20] === 'A' ? 'B' : 'A'}${token.slice(21)}`;
    for (const bad of ['', 'c2.', 'c1.AAAA', 'garbage', flipped, token.slice(0, -4), `x${token}`]) {
      expect(tokens.open(bad, binding)).toEqual({ ok: false, reason: 'invalid' });
    }
    expect(createListCursors(randomBytes(32)).open(token, binding)).toEqual({
      ok: false,
      reason: 'invalid',
    });
  });

  it('refuse to wrap an upstream cursor too long to travel as a cursor', () => {
    expect(createListCursors(key).seal('x'.repeat(7_000), binding)).toBeNull();
  });
});
