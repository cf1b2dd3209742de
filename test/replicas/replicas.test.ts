import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  freePort,
  type RedisServer,
  redisServerAvailable,
  startRedisServer,
} from '@payments/server/testing/redis-server';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BffProcess, signIn, startBff, writeUsersFile } from '../abuse/testing/bff-process.ts';
import { type Nginx, nginxAvailable, startNginx } from './testing/nginx.ts';
import { SANDBOX_CREDENTIALS, type SandboxProcess, startSandboxProcess } from './testing/sandbox-process.ts';

const ANA = { username: 'ana', password: 'ana-password-12345' };
const BOB = { username: 'bob', password: 'bob-password-12345' };
/** Enough rows in one company that a download nobody reads stays running (more than the kernel buffers hold). */
const SEED = 60_000;

const available = redisServerAvailable() && nginxAvailable();
if (!available) console.warn('replicas: redis-server or nginx missing here, so skipped (CI installs both)');

describe.runIf(available)('two BFF replicas behind nginx, sharing Redis', () => {
  let folder: string;
  let redis: RedisServer;
  let sandbox: SandboxProcess;
  const replicas: BffProcess[] = [];
  let nginx: Nginx;
  const agent = new Agent({ connections: 8 });

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'replicas-'));
    redis = await startRedisServer();
    sandbox = await startSandboxProcess(await freePort(), SEED);
    const companies = join(folder, 'companies.json');
    const users = join(folder, 'users.json');
    await sandbox.writeCompaniesFile(companies);
    await writeUsersFile(users, [ANA, BOB]);
    const env = {
      PAYMENTS_BASE_URL: sandbox.baseUrl,
      PAYMENTS_SECRET_ID: SANDBOX_CREDENTIALS.id,
      PAYMENTS_SECRET_PASSWORD: SANDBOX_CREDENTIALS.secret,
      PAYMENTS_COMPANIES_FILE: companies,
      AUTH_USERS_FILE: users,
      SHARED_STATE_URL: redis.url,
      TRUST_PROXY: '127.0.0.1',
      // Above nginx's upstream keepalive_timeout (60 s), as README says.
      KEEP_ALIVE_TIMEOUT: '65',
      EXPORT_MAX_PER_USER: '2',
      LOG_FORMAT: 'json',
    };
    replicas.push(...(await Promise.all([startBff(env), startBff(env)])));
    nginx = await startNginx(
      await freePort(),
      replicas.map((replica) => replica.port),
    );
  }, 90_000);

  afterAll(async () => {
    await agent.close();
    await nginx?.stop();
    await Promise.all(replicas.map((replica) => replica.stop()));
    await sandbox?.stop();
    await redis?.stop();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  const get = async (origin: string, path: string, cookie: string, headers: Record<string, string> = {}) => {
    const response = await request(`${origin}${path}`, {
      headers: { 'x-csrf': '1', cookie, ...headers },
      dispatcher: agent,
    });
    const text = await response.body.text();
    return {
      status: response.statusCode,
      upstream: String(response.headers['x-upstream'] ?? ''),
      retryAfter: response.headers['retry-after'],
      json: () => JSON.parse(text) as Record<string, unknown>,
    };
  };
  const signInAt = async (origin: string, user: { username: string; password: string }) => {
    const answer = await signIn(origin, user.username, user.password, agent);
    expect(answer.status).toBe(200);
    return answer.cookie;
  };
  const statusOn = async (replica: BffProcess, cookie: string) =>
    (await get(replica.origin, '/api/config', cookie)).status;

  it('walks 20 pages through nginx, alternating replicas, with no row lost or repeated', async () => {
    const cookie = await signInAt(nginx.origin, ANA);
    const ids: string[] = [];
    const servedBy: string[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 20; page++) {
      const query = `limit=25${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const answer = await get(nginx.origin, `/api/payments?${query}`, cookie, { 'x-company-id': 'acme' });
      expect(answer.status).toBe(200);
      const body = answer.json() as { data: { id: string }[]; next_cursor: string | null };
      ids.push(...body.data.map((row) => row.id));
      servedBy.push(answer.upstream);
      cursor = body.next_cursor;
    }
    const expected: string[] = [];
    let upstreamCursor: string | null = null;
    while (expected.length < 500) {
      const page = await sandbox.page(
        { limit: '100', ...(upstreamCursor ? { cursor: upstreamCursor } : {}) },
        'acme',
      );
      expected.push(...page.data.map((row) => row.id));
      upstreamCursor = page.next_cursor;
    }
    expect(ids).toEqual(expected.slice(0, 500));
    expect(new Set(ids).size).toBe(500);
    expect(new Set(servedBy).size).toBe(2);
    const switches = servedBy.filter((by, i) => i > 0 && by !== servedBy[i - 1]).length;
    expect(switches).toBeGreaterThanOrEqual(10);
  });

  it('a session signed out through nginx is refused by both replicas, old cookie or not', async () => {
    const cookie = await signInAt(nginx.origin, ANA);
    for (const replica of replicas) expect(await statusOn(replica, cookie)).toBe(200);
    const out = await request(`${nginx.origin}/api/session`, {
      method: 'DELETE',
      headers: { 'x-csrf': '1', cookie },
      dispatcher: agent,
    });
    await out.body.dump();
    expect(out.statusCode).toBe(204);
    for (const replica of replicas) expect(await statusOn(replica, cookie)).toBe(401);
  });

  it('"sign out everywhere" on one replica ends every session of the user on both', async () => {
    const [first, second] = replicas as [BffProcess, BffProcess];
    const laptop = await signInAt(first.origin, BOB);
    const phone = await signInAt(second.origin, BOB);
    for (const replica of replicas) {
      expect(await statusOn(replica, laptop)).toBe(200);
      expect(await statusOn(replica, phone)).toBe(200);
    }
    const out = await request(`${second.origin}/api/session?everywhere=true`, {
      method: 'DELETE',
      headers: { 'x-csrf': '1', cookie: laptop },
      dispatcher: agent,
    });
    await out.body.dump();
    expect(out.statusCode).toBe(204);
    for (const replica of replicas) {
      expect(await statusOn(replica, laptop)).toBe(401);
      expect(await statusOn(replica, phone)).toBe(401);
    }
  });

  it('counts wrong passwords split across the replicas as one count: the pair is locked on both', async () => {
    const from = { 'x-forwarded-for': '198.51.100.7' };
    const attempt = async (replica: BffProcess, password: string) => {
      const response = await request(`${replica.origin}/api/session`, {
        method: 'POST',
        headers: { 'x-csrf': '1', 'content-type': 'application/json', ...from },
        body: JSON.stringify({ username: BOB.username, password }),
        dispatcher: agent,
      });
      const body = (await response.body.json()) as { code?: string };
      return `${response.statusCode} ${body.code ?? ''}`.trim();
    };
    const wrong: string[] = [];
    for (let i = 0; i < 5; i++) wrong.push(await attempt(replicas[i % 2] as BffProcess, `wrong-${i}`));
    expect(wrong).toEqual(Array(5).fill('401 invalid_credentials'));
    for (const replica of replicas) expect(await attempt(replica, BOB.password)).toBe('429 rate_limited');
  });

  it('caps downloads across the replicas: two running on one, a third on the other gets 429', async () => {
    const [first, second] = replicas as [BffProcess, BffProcess];
    const cookie = await signInAt(first.origin, ANA);
    // Downloads nobody reads: they stay running while the kernel buffers are full.
    const slow = new Agent({ connections: 4 });
    const open = async (replica: BffProcess) =>
      request(`${replica.origin}/api/payments/export.csv`, {
        headers: { 'x-csrf': '1', cookie, 'x-company-id': 'acme' },
        dispatcher: slow,
      });
    try {
      const running = [await open(first), await open(first)];
      expect(running.map((r) => r.statusCode)).toEqual([200, 200]);
      const third = await get(second.origin, '/api/payments/export.csv', cookie, { 'x-company-id': 'acme' });
      expect(third.status).toBe(429);
      expect(third.json().code).toBe('rate_limited');
      expect(Number(third.retryAfter)).toBeGreaterThan(0);
      for (const download of running) download.body.destroy();
    } finally {
      await slow.destroy();
    }
  });

  it('Redis stopped mid-session: 503 shared_state_unavailable, nothing crashes, service resumes when it returns', async () => {
    const cookie = await signInAt(nginx.origin, ANA);
    expect((await get(nginx.origin, '/api/payments?limit=5', cookie)).status).toBe(200);
    await redis.stop();
    for (let i = 0; i < 4; i++) {
      const answer = await get(nginx.origin, '/api/payments?limit=5', cookie);
      expect(`${answer.status} ${answer.json().code}`).toBe('503 shared_state_unavailable');
      expect(answer.retryAfter).toBe('5');
    }
    const down = await signIn(nginx.origin, ANA.username, ANA.password, agent);
    expect(`${down.status} ${down.code}`).toBe('503 shared_state_unavailable');
    for (const replica of replicas) {
      expect((await get(replica.origin, '/healthz', '')).status).toBe(200);
      const ready = await get(replica.origin, '/readyz', '');
      expect(`${ready.status} ${ready.json().code}`).toBe('503 shared_state_unavailable');
    }

    await redis.start();
    const back = performance.now();
    // A new, empty Redis: the session is not taken as valid, and signing in works again by itself.
    const statuses = new Set<number>();
    for (const replica of replicas) {
      let status = 503;
      while (status === 503 && performance.now() - back < 10_000) {
        status = (await get(replica.origin, '/api/payments?limit=5', cookie)).status;
        if (status === 503) await sleep(100);
      }
      statuses.add(status);
    }
    expect([...statuses]).toEqual([401]);
    expect(performance.now() - back).toBeLessThan(5_000);
    const again = await signInAt(nginx.origin, ANA);
    for (const replica of replicas) {
      expect((await get(replica.origin, '/api/payments?limit=5', again)).status).toBe(200);
      expect((await get(replica.origin, '/readyz', '')).status).toBe(200);
    }
  });
});
