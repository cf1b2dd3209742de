import { randomBytes } from 'node:crypto';
import { CURSOR_PATTERN } from '@payments/shared';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createEmbeddedState } from '../../../shared-state/index.ts';
import { type CursorBinding, createListCursors } from './list-cursor.ts';
import type { MemberPlace } from './list-page.ts';

const binding: CursorBinding = { user: 'ana', company: 'acme-eu', status: 'COMPLETED', date_from: undefined };
const key = randomBytes(32);
const place = (cursor: string | null, company = 'acme-eu'): MemberPlace => ({
  company,
  filters: { status: 'COMPLETED' },
  position: { cursor, skip: 3, limit: 100, head: { at: 1_700_000_000_000, id: '"p7"' }, prev: undefined },
  head: { at: 1_700_000_000_000, id: '"p7"' },
});

describe('list cursors', () => {
  it('round-trip every company place for the same binding, and hide the upstream cursors from the browser', async () => {
    const tokens = createListCursors(key, createEmbeddedState());
    const places = [place('upstream-cursor-XYZ'), { ...place(null, 'acme-eu-de'), position: null }];
    const token = await tokens.seal(places, binding);
    expect(CURSOR_PATTERN.test(token)).toBe(true);
    expect(token).not.toContain('upstream-cursor-XYZ');
    expect(Buffer.from(token.slice(3), 'base64url').toString('latin1')).not.toContain('upstream-cursor');
    expect(await tokens.open(token, binding)).toEqual({ ok: true, places });
  });

  it('seal every token under a fresh IV, and open on another instance with the same key', async () => {
    const tokens = createListCursors(key, createEmbeddedState());
    const ivs = new Set<string>();
    for (let i = 0; i < 300; i++) {
      const token = await tokens.seal([place('same')], binding);
      ivs.add(Buffer.from(token.slice(3), 'base64url').subarray(0, 12).toString('hex'));
    }
    expect(ivs.size).toBe(300);
    const token = await tokens.seal([place('c')], binding);
    expect((await createListCursors(Buffer.from(key), createEmbeddedState()).open(token, binding)).ok).toBe(
      true,
    );
  });

  it.each([
    ['user', { user: 'bob' }],
    ['company', { company: 'acme-us' }],
    ['status', { status: undefined }],
    ['date_from', { date_from: '2026-01-01T00:00:00' }],
    ['date_to', { date_to: '2026-01-31T23:59:59' }],
    ['group', { group: 'true' }],
  ])('refuse a token used with another %s as a mismatch', async (_name, change) => {
    const tokens = createListCursors(key, createEmbeddedState());
    const token = await tokens.seal([place('c')], binding);
    expect(await tokens.open(token, { ...binding, ...change })).toEqual({ ok: false, reason: 'mismatch' });
  });

  it('refuse forged, tampered, truncated and foreign-key tokens as invalid', async () => {
    const tokens = createListCursors(key, createEmbeddedState());
    const token = await tokens.seal([place('c')], binding);
    const flipped = `${token.slice(0, 20)}${token[20] === 'A' ? 'B' : 'A'}${token.slice(21)}`;
    for (const bad of ['', 'c3.', 'c1.AAAA', 'garbage', flipped, token.slice(0, -4), `x${token}`])
      expect(await tokens.open(bad, binding)).toEqual({ ok: false, reason: 'invalid' });
    expect(await createListCursors(randomBytes(32), createEmbeddedState()).open(token, binding)).toEqual({
      ok: false,
      reason: 'invalid',
    });
  });

  it('keep positions too long for a URL (cursors of any length and alphabet, many companies) behind a short handle', async () => {
    const state = createEmbeddedState();
    const tokens = createListCursors(key, state);
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 4_000 }), {
          minLength: 1,
          maxLength: 41,
        }),
        async (cursors) => {
          const places = cursors.map((cursor, i) => place(cursor, `company-${i}`));
          const token = await tokens.seal(places, binding);
          expect(CURSOR_PATTERN.test(token)).toBe(true);
          expect(token.length).toBeLessThanOrEqual(1_500);
          expect(await tokens.open(token, binding)).toEqual({ ok: true, places });
        },
      ),
      { numRuns: 40 },
    );
  });

  it('answer an expired handle as expired, so the list starts over', async () => {
    let now = Date.now();
    const state = createEmbeddedState({ now: () => now });
    const tokens = createListCursors(key, state);
    const places = Array.from({ length: 41 }, (_, i) =>
      place(randomBytes(150).toString('base64'), `company-${i}`),
    );
    const token = await tokens.seal(places, binding);
    expect(token.startsWith('h3.')).toBe(true);
    now += 3 * 3_600_000;
    expect(await tokens.open(token, binding)).toEqual({ ok: false, reason: 'expired' });
  });
});
