import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { CURSOR_PATTERN } from '@payments/shared';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createEmbeddedState, createRedisState, type SharedState } from '../../../shared-state/index.ts';
import {
  type RedisServer,
  redisServerAvailable,
  startRedisServer,
} from '../../../shared-state/testing/redis-server.ts';
import { type CursorBinding, createListCursors } from './list-cursor.ts';
import type { MemberPlace } from './list-page.ts';

const binding: CursorBinding = { user: 'ana', company: 'acme-eu', status: 'COMPLETED', date_from: undefined };
const key = randomBytes(32);
const SESSION = 'session-1';
const LIMITS = { perSession: 64, maxBytes: 64 * 1024 * 1024, idleMs: 1_800_000 };
const cursorsOn = (state: SharedState, limits = LIMITS) => createListCursors(key, state, limits);
const place = (cursor: string | null, company = 'acme-eu'): MemberPlace => ({
  company,
  filters: { status: 'COMPLETED' },
  position: { cursor, skip: 3, limit: 100, head: { at: 1_700_000_000_000, id: '"p7"' }, prev: undefined },
  head: { at: 1_700_000_000_000, id: '"p7"' },
});

describe('list cursors', () => {
  it('round-trip every company place for the same binding, and hide the upstream cursors from the browser', async () => {
    const tokens = cursorsOn(createEmbeddedState());
    const places = [place('upstream-cursor-XYZ'), { ...place(null, 'acme-eu-de'), position: null }];
    const token = await tokens.seal(places, binding, SESSION);
    expect(CURSOR_PATTERN.test(token)).toBe(true);
    expect(token).not.toContain('upstream-cursor-XYZ');
    expect(Buffer.from(token.slice(3), 'base64url').toString('latin1')).not.toContain('upstream-cursor');
    expect(await tokens.open(token, binding)).toEqual({ ok: true, places });
  });

  it('seal every token under a fresh IV, and open on another instance with the same key', async () => {
    const tokens = cursorsOn(createEmbeddedState());
    const ivs = new Set<string>();
    for (let i = 0; i < 300; i++) {
      const token = await tokens.seal([place('same')], binding, SESSION);
      ivs.add(Buffer.from(token.slice(3), 'base64url').subarray(0, 12).toString('hex'));
    }
    expect(ivs.size).toBe(300);
    const token = await tokens.seal([place('c')], binding, SESSION);
    expect(
      (await createListCursors(Buffer.from(key), createEmbeddedState(), LIMITS).open(token, binding)).ok,
    ).toBe(true);
  });

  it.each([
    ['user', { user: 'bob' }],
    ['company', { company: 'acme-us' }],
    ['status', { status: undefined }],
    ['date_from', { date_from: '2026-01-01T00:00:00' }],
    ['date_to', { date_to: '2026-01-31T23:59:59' }],
    ['group', { group: 'true' }],
  ])('refuse a token used with another %s as a mismatch', async (_name, change) => {
    const tokens = cursorsOn(createEmbeddedState());
    const token = await tokens.seal([place('c')], binding, SESSION);
    expect(await tokens.open(token, { ...binding, ...change })).toEqual({ ok: false, reason: 'mismatch' });
  });

  it('refuse forged, tampered, truncated and foreign-key tokens as invalid', async () => {
    const tokens = cursorsOn(createEmbeddedState());
    const token = await tokens.seal([place('c')], binding, SESSION);
    const flipped = `${token.slice(0, 20)}${token[20] === 'A' ? 'B' : 'A'}${token.slice(21)}`;
    for (const bad of ['', 'c3.', 'c1.AAAA', 'garbage', flipped, token.slice(0, -4), `x${token}`])
      expect(await tokens.open(bad, binding)).toEqual({ ok: false, reason: 'invalid' });
    expect(
      await createListCursors(randomBytes(32), createEmbeddedState(), LIMITS).open(token, binding),
    ).toEqual({
      ok: false,
      reason: 'invalid',
    });
  });

  it('keep positions too long for a URL (cursors of any length and alphabet, many companies) behind a short handle', async () => {
    const state = createEmbeddedState();
    const tokens = cursorsOn(state);
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 4_000 }), {
          minLength: 1,
          maxLength: 41,
        }),
        async (cursors) => {
          const places = cursors.map((cursor, i) => place(cursor, `company-${i}`));
          const token = await tokens.seal(places, binding, SESSION);
          expect(CURSOR_PATTERN.test(token)).toBe(true);
          expect(token.length).toBeLessThanOrEqual(1_500);
          expect(await tokens.open(token, binding)).toEqual({ ok: true, places });
        },
      ),
      { numRuns: 40 },
    );
  });

  it('answer a handle unused for the idle time as expired, and keep one that is read', async () => {
    let now = Date.now();
    const state = createEmbeddedState({ now: () => now });
    const tokens = cursorsOn(state);
    const read = await tokens.seal(groupPlaces(1), binding, SESSION);
    const idle = await tokens.seal(groupPlaces(2), binding, SESSION);
    expect(read.startsWith('h3.')).toBe(true);
    now += LIMITS.idleMs - 1_000;
    expect((await tokens.open(read, binding)).ok).toBe(true);
    now += 2_000;
    expect(await tokens.open(idle, binding)).toEqual({ ok: false, reason: 'expired' });
    expect((await tokens.open(read, binding)).ok).toBe(true);
  });
});

const hasRedis = redisServerAvailable();
let redis: RedisServer | undefined;
beforeAll(async () => {
  if (hasRedis) redis = await startRedisServer();
}, 20_000);
afterAll(async () => {
  await redis?.stop();
});

const opened: SharedState[] = [];
afterEach(async () => {
  for (const state of opened.splice(0)) await state.close();
});

const stores: [string, () => Promise<SharedState>][] = [
  ['embedded', async () => createEmbeddedState()],
  ...(hasRedis
    ? ([
        [
          'redis',
          async () => {
            const state = createRedisState({
              url: (redis as RedisServer).url,
              keyPrefix: `t${Math.random()}:`,
            });
            opened.push(state);
            for (let i = 0; i < 100; i++) {
              try {
                await state.ping();
                return state;
              } catch {
                await sleep(50);
              }
            }
            throw new Error('redis never became ready');
          },
        ],
      ] as [string, () => Promise<SharedState>][])
    : []),
];

describe.each(stores)('list cursor handles in the %s shared state', (_name, make) => {
  it('keep one handle for the same positions asked 10,000 times', async () => {
    const tokens = cursorsOn(await make());
    const places = groupPlaces(0);
    const seen = new Set<string>();
    for (let i = 0; i < 10_000; i++) seen.add(await tokens.seal(places, binding, SESSION));
    // Every token is sealed anew (its own IV), and all of them name the one handle.
    expect(seen.size).toBe(10_000);
    const handles = await tokens.handles();
    expect(handles.entries).toBe(1);
    for (const token of [...seen].slice(-3))
      expect(await tokens.open(token, binding)).toEqual({ ok: true, places });
  }, 120_000);

  it('keep at most perSession handles of a session over 10,000 pages, its oldest answering expired', async () => {
    const tokens = cursorsOn(await make());
    const other = await tokens.seal(groupPlaces(-1), binding, 'session-2');
    const first = await tokens.seal(groupPlaces(0), binding, SESSION);
    let last = first;
    let maxEntries = 0;
    for (let page = 1; page < 10_000; page++) {
      last = await tokens.seal(groupPlaces(page), binding, SESSION);
      if (page % 500 === 0) maxEntries = Math.max(maxEntries, (await tokens.handles()).entries);
    }
    // The other session's one handle, and this session's last 64.
    expect(maxEntries).toBe(LIMITS.perSession + 1);
    expect(await tokens.open(first, binding)).toEqual({ ok: false, reason: 'expired' });
    expect((await tokens.open(last, binding)).ok).toBe(true);
    expect((await tokens.open(other, binding)).ok).toBe(true);
  }, 120_000);

  it('keep all handles within maxBytes over 10,000 pages, the sessions holding the most losing theirs first', async () => {
    const limits = { ...LIMITS, maxBytes: 256 * 1024 };
    const tokens = cursorsOn(await make(), limits);
    const quiet = await tokens.seal(groupPlaces(-1), binding, 'session-quiet');
    let largest = 0;
    let last = '';
    for (let page = 0; page < 10_000; page++) {
      last = await tokens.seal(groupPlaces(page), binding, `session-${page % 8}`);
      if (page % 250 === 0) largest = Math.max(largest, (await tokens.handles()).bytes);
    }
    const { entries, bytes } = await tokens.handles();
    expect(Math.max(largest, bytes)).toBeLessThanOrEqual(limits.maxBytes);
    // Full: as many handles as the bytes allow, no fewer.
    expect(bytes).toBeGreaterThan(limits.maxBytes - bytes / entries);
    expect((await tokens.open(last, binding)).ok).toBe(true);
    expect((await tokens.open(quiet, binding)).ok).toBe(true);
  }, 120_000);
});

/** A group's places whose positions are too long for a URL (just): 12 companies, upstream cursors of 108 characters. */
function groupPlaces(page: number): MemberPlace[] {
  return Array.from({ length: 12 }, (_, i) =>
    place(`${randomBytes(80).toString('base64')}:${page}`, `company-${i}`),
  );
}
