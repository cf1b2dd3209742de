import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmbeddedState, createRedisState, type SharedState } from '../../../shared-state/index.ts';
import {
  type RedisServer,
  redisServerAvailable,
  startRedisServer,
} from '../../../shared-state/testing/redis-server.ts';
import { withExpiringCursors } from '../../../upstream/testing/expiring-cursors.ts';
import { type GeneratedWorld, generatedUpstream } from '../../../upstream/testing/generated-upstream.ts';
import { InProcessDispatcher } from '../../../upstream/testing/in-process-dispatcher.ts';
import { createTestBff, signInOn } from '../../testing/bff-harness.ts';

/** The pool list-cursor.ts keeps handles in. */
const HANDLES = 'cursor-handles';

/**
 * A tree the test users see (demo: all of it; us-tree: acme-us and below), each company with `rows` payments an
 * hour apart, so that a group's positions hold one long upstream cursor per company.
 */
function world(rows: number): GeneratedWorld {
  const tree: [string, string | null][] = [
    ['acme', null],
    ['acme-us', 'acme'],
    ['acme-us-ca', 'acme-us'],
    ['acme-us-ny', 'acme-us'],
    ['acme-us-tx', 'acme-us'],
  ];
  const base = Date.UTC(2025, 0, 1) / 1000;
  return {
    companies: tree.map(([id, parent], c) => ({
      id,
      name: id,
      parent_id: parent,
      rows: Array.from({ length: rows }, (_, i) => {
        const at = base + (rows - i) * 3600 + c;
        return {
          record: {
            id: `${id}-${i}`,
            created_at: new Date(at * 1000).toISOString().slice(0, 19),
            status: 'COMPLETED',
            amount: i,
            currency: 'EUR',
          },
          at,
          tie: 0,
        };
      }),
    })),
    order: 'created_at_desc',
    ids: 'string',
    fill: 'full',
    cursorLength: 0,
    alphabet: 'x',
    seed: 1,
  };
}

const hasRedis = redisServerAvailable();
let redis: RedisServer | undefined;
beforeAll(async () => {
  if (hasRedis) redis = await startRedisServer();
}, 20_000);
afterAll(async () => {
  await redis?.stop();
});

async function redisState(): Promise<SharedState> {
  const state = createRedisState({ url: (redis as RedisServer).url, keyPrefix: `t${Math.random()}:` });
  for (let i = 0; i < 100; i++) {
    try {
      await state.ping();
      return state;
    } catch {
      await sleep(50);
    }
  }
  throw new Error('redis never became ready');
}

const stores: [string, () => Promise<SharedState>][] = [
  ['embedded', async () => createEmbeddedState()],
  ...(hasRedis ? ([['redis', redisState]] as [string, () => Promise<SharedState>][]) : []),
];

async function bffWithHandles(settings: { perUser: number; maxBytes: number }, sharedState: SharedState) {
  const data = world(600);
  const upstream = withExpiringCursors(generatedUpstream(data).app.fetch, { bytes: 900 });
  const bff = await createTestBff({
    upstream: {
      baseUrl: 'http://generated.test/v1',
      credentials: { secretId: 'gen', secretPassword: 'gen-pw' },
      dispatcher: new InProcessDispatcher(upstream.fetch),
    },
    companies: data.companies.map(({ id, name, parent_id }) => ({ id, name, parent_id })),
    settings: {
      PAYMENTS_TIME_ZONE: 'UTC',
      CURSOR_HANDLES_PER_USER: settings.perUser,
      CURSOR_HANDLES_MAX_BYTES: settings.maxBytes,
    },
    parts: { sharedState },
  });
  const page = async (cookie: string, company: string, cursor: string | null) => {
    const query = new URLSearchParams({ group: 'true', limit: '7' });
    if (cursor) query.set('cursor', cursor);
    const response = await bff.app.request(`/api/payments?${query}`, {
      headers: { 'X-CSRF': '1', cookie, 'X-Company-Id': company },
    });
    const body = (await response.json()) as {
      next_cursor?: string | null;
      data?: { id: string }[];
      code?: string;
    };
    return { status: response.status, body };
  };
  return {
    bff: {
      ...bff,
      async close() {
        await bff.close();
        await sharedState.close();
      },
    },
    page,
    handles: () => sharedState.poolSize(HANDLES),
  };
}

describe.each(stores)('list cursor handles in the %s shared state', (_name, makeState) => {
  it("stay one per position however often a page is asked, within the user's quota, and another user's pages answer throughout", async () => {
    const { bff, page, handles } = await bffWithHandles(
      { perUser: 4, maxBytes: 1024 * 1024 },
      await makeState(),
    );
    try {
      const attacker = await signInOn(bff.app, 'demo');
      const victim = await signInOn(bff.app, 'us-tree');
      // Once every company's first page is passed, the group's positions hold their long cursors: a handle.
      let token = '';
      while (!token.startsWith('h3.'))
        token = (await page(attacker, 'acme', token || null)).body.next_cursor as string;
      const before = (await handles()).entries;
      let victimCursor: string | null = null;
      const victimRows: string[] = [];
      // The same page asked 600 times, 4 at once: one more handle, not 600.
      for (let round = 0; round < 150; round++) {
        const asked = await Promise.all(Array.from({ length: 4 }, () => page(attacker, 'acme', token)));
        expect(asked.map((a) => a.status)).toEqual([200, 200, 200, 200]);
        const next = await page(victim, 'acme-us', victimCursor);
        expect(next.status).toBe(200);
        victimRows.push(...(next.body.data ?? []).map((row) => row.id));
        victimCursor = next.body.next_cursor ?? null;
      }
      // One more handle for the attacker's next position, and the victim's last four (its quota).
      expect((await handles()).entries).toBe(before + 1 + 4);
      // Distinct pages: the attacker's oldest handles go, never more than 4 of them.
      let cursor: string | null = token;
      let largest = 0;
      for (let pages = 0; pages < 150; pages++) {
        const next = await page(attacker, 'acme', cursor);
        expect(next.status).toBe(200);
        cursor = next.body.next_cursor ?? null;
        const victimNext = await page(victim, 'acme-us', victimCursor);
        expect(victimNext.status).toBe(200);
        victimRows.push(...(victimNext.body.data ?? []).map((row) => row.id));
        victimCursor = victimNext.body.next_cursor ?? null;
        largest = Math.max(largest, (await handles()).entries);
      }
      expect(largest).toBeLessThanOrEqual(4 + 4);
      const dropped = await page(attacker, 'acme', token);
      expect(dropped).toMatchObject({ status: 400, body: { code: 'cursor_expired' } });
      // The victim's walk lost and repeated nothing.
      expect(new Set(victimRows).size).toBe(victimRows.length);
      expect(victimRows).toHaveLength(300 * 7);
    } finally {
      await bff.close();
    }
  }, 120_000);

  it("keep the whole store within its bytes across many sessions, and another user's list goes on", async () => {
    const maxBytes = 64 * 1024;
    const { bff, page, handles } = await bffWithHandles({ perUser: 64, maxBytes }, await makeState());
    try {
      const sessions: string[] = [];
      for (let i = 0; i < 6; i++) sessions.push(await signInOn(bff.app, 'demo'));
      const victim = await signInOn(bff.app, 'us-tree');
      const cursors = new Map<string, string | null>(sessions.map((s) => [s, null]));
      let victimCursor: string | null = null;
      let victimPages = 0;
      let largest = 0;
      for (let round = 0; round < 40; round++) {
        for (const session of sessions) {
          const next = await page(session, 'acme', cursors.get(session) ?? null);
          expect(
            next.status,
            `${round} ${JSON.stringify(next.body)} ${JSON.stringify(await handles())}`,
          ).toBe(200);
          cursors.set(session, next.body.next_cursor ?? null);
        }
        const next = await page(victim, 'acme-us', victimCursor);
        expect(next.status).toBe(200);
        victimCursor = next.body.next_cursor ?? null;
        victimPages += 1;
        largest = Math.max(largest, (await handles()).bytes);
      }
      expect(largest).toBeLessThanOrEqual(maxBytes);
      expect(victimPages).toBe(40);
    } finally {
      await bff.close();
    }
  }, 120_000);
});
