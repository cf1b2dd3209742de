import { randomBytes } from 'node:crypto';
import { type Company, type Payment, paymentPageSchema } from '@payments/shared';
import { Hono } from 'hono';
import { parseSettings } from '../../config/settings.ts';
import { logEvent } from '../../runtime/logger.ts';
import { createSandbox, type Sandbox, type SandboxOptions } from '../../sandbox/index.ts';
import { createEmbeddedState } from '../../shared-state/index.ts';
import {
  createUpstreamClient,
  type UpstreamClientOptions,
  type UpstreamLogEvent,
} from '../../upstream/index.ts';
import { InProcessDispatcher } from '../../upstream/testing/in-process-dispatcher.ts';
import {
  type AuthUser,
  createAuthenticator,
  createUserStore,
  hashPassword,
  type UserStore,
  unmatchableHash,
} from '../auth/index.ts';
import { type BffParts, type BffSettings, createBff } from '../create-bff.ts';
import { FAST_TEST_COST } from './test-costs.ts';

/** What reached the upstream: for "nothing invalid forwarded" and "no upstream request made". */
interface RecordedRequest {
  path: string;
  query: Record<string, string[]>;
  headers: Record<string, string>;
}

export const PASSWORD = 'correct horse battery';

/** Test users: everything, one child company alone, and a child with its descendants. */
async function testUsers(): Promise<UserStore> {
  const passwordHash = await hashPassword(PASSWORD, { cost: FAST_TEST_COST });
  const users: AuthUser[] = [
    { username: 'demo', passwordHash, companies: '*', includeDescendants: true },
    { username: 'eu-only', passwordHash, companies: ['acme-eu'], includeDescendants: false },
    { username: 'us-tree', passwordHash, companies: ['acme-us'], includeDescendants: true },
  ];
  return createUserStore(users);
}

export function testAuthenticator(users: UserStore) {
  return createAuthenticator(users, { dummyHash: unmatchableHash(FAST_TEST_COST) });
}

/** Signs in on `app` through its API and returns the `Cookie` header value; a refused sign-in fails the test. */
export async function signInOn(
  app: { request(path: string, init: RequestInit): Response | Promise<Response> },
  username = 'demo',
  password = PASSWORD,
): Promise<string> {
  const response = await app.request('/api/session', {
    method: 'POST',
    headers: { 'X-CSRF': '1', 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  if (response.status !== 200 || cookie === '') throw new Error(`sign-in failed: ${response.status}`);
  return cookie;
}

/** Settings as the environment would give them, with a test secret and no SPA (unless a test sets one). */
function testSettings(overrides: Partial<BffSettings> = {}): BffSettings {
  return {
    ...parseSettings({}),
    APP_SECRET: randomBytes(32).toString('base64url'),
    WEB_DIST_DIR: '/nonexistent/web-dist',
    ...overrides,
  };
}

/** The upstream client's events into a test's log lines, as the composition logs them. */
const logUpstreamTo = (logs: string[]) => (event: UpstreamLogEvent) =>
  logEvent((line) => logs.push(line), 'warn', { msg: 'upstream', ...event });

/** The upstream client a test BFF uses: quick backoff, so that retried faults cost milliseconds. */
const TEST_BACKOFF = { backoffBaseMs: 5, backoffCapMs: 20 };

/** A BFF made by a test, with whatever of its parts the test made for it closed by `close`. */
export type TestBff = ReturnType<typeof createBff> & { close(): Promise<void> };

/**
 * A BFF in front of any upstream, with the test users and an in-process store of its own; `close` closes what it
 * made. Its log lines are kept in `logs`.
 */
export async function createTestBff(options: {
  upstream: UpstreamClientOptions;
  companies: readonly Company[];
  settings?: Partial<BffSettings>;
  parts?: Partial<BffParts>;
}): Promise<TestBff & { logs: string[] }> {
  const users = await testUsers();
  const logs: string[] = [];
  const upstream = createUpstreamClient({
    ownCompanyId: options.companies[0]?.id,
    log: logUpstreamTo(logs),
    ...TEST_BACKOFF,
    ...options.upstream,
  });
  const sharedState = createEmbeddedState();
  const bff = createBff(testSettings(options.settings), {
    upstream,
    companies: options.companies,
    users,
    sharedState,
    authenticator: testAuthenticator(users),
    logger: (line) => logs.push(line),
    ...options.parts,
  });
  return {
    ...bff,
    logs,
    async close() {
      await bff.close();
      await upstream.close();
      await sharedState.close();
    },
  };
}

export interface Harness {
  /** The BFF's upstream, behind a proxy that records what reached it, answered in-process. */
  sandbox: Sandbox;
  recorded: RecordedRequest[];
  companies: Company[];
  bff: TestBff;
  logs: string[];
  settings: BffSettings;
  /** How the harness's upstream client was made, for a test that needs another one. */
  upstreamOptions: UpstreamClientOptions;
  parts: BffParts;
  /**
   * Another BFF on the harness's sandbox: its settings and parts as the harness's, but for what is given. With
   * `upstream`, a client of its own is made with those options; a given `sharedState` is closed with it.
   */
  make(overrides?: {
    settings?: Partial<BffSettings>;
    parts?: Partial<BffParts>;
    upstream?: Partial<UpstreamClientOptions>;
  }): TestBff;
  /** Signs in through the API and returns the `Cookie` header value. */
  signIn(username?: string, password?: string): Promise<string>;
  /** Every payment of a company's list with these filters, straight from the sandbox: the tests' reference. */
  walkSandbox(company: string, filters?: Record<string, string>): Promise<Payment[]>;
  /** A same-origin API call with the anti-forgery header, and the cookie when given. */
  call(
    path: string,
    init?: { cookie?: string; headers?: Record<string, string>; method?: string; body?: string },
  ): Promise<Response>;
  close(): Promise<void>;
}

export async function createHarness(
  options: { sandbox?: SandboxOptions; settings?: Partial<BffSettings>; parts?: Partial<BffParts> } = {},
): Promise<Harness> {
  const sandbox = createSandbox({ seedCount: 2_000, ...options.sandbox });
  const recorded: RecordedRequest[] = [];
  const proxy = new Hono();
  proxy.all('*', (c) => {
    const headers = c.req.header();
    recorded.push({ path: c.req.path, query: c.req.queries(), headers });
    return sandbox.app.fetch(c.req.raw);
  });
  const tenant = sandbox.tenants[0];
  if (!tenant) throw new Error('sandbox without tenants');
  const credentials = { secretId: tenant.secretId, secretPassword: tenant.secretPassword };
  const companies = tenant.companies;
  const users = await testUsers();
  const logs: string[] = [];
  const settings = testSettings(options.settings);
  const upstreamOptions: UpstreamClientOptions = {
    baseUrl: 'http://upstream.test/v1',
    // The sandbox answers in this process, through the recording proxy: no port.
    dispatcher: new InProcessDispatcher((request) => proxy.fetch(request)),
    credentials,
    ownCompanyId: companies[0]?.id,
    log: logUpstreamTo(logs),
    ...TEST_BACKOFF,
  };
  const parts: BffParts = {
    upstream: createUpstreamClient(upstreamOptions),
    companies,
    users,
    authenticator: testAuthenticator(users),
    logger: (line: string) => logs.push(line),
    // Shared by every BFF made from these parts, as replicas share one store.
    sharedState: createEmbeddedState(options.parts?.now ? { now: options.parts.now } : {}),
    ...options.parts,
  };
  const make: Harness['make'] = (overrides = {}) => {
    // Another address is another upstream, reached over the network unless a dispatcher is given too.
    const elsewhere = overrides.upstream?.baseUrl !== undefined ? { dispatcher: undefined } : {};
    const client =
      overrides.upstream && createUpstreamClient({ ...upstreamOptions, ...elsewhere, ...overrides.upstream });
    const made = createBff(
      { ...settings, ...overrides.settings },
      { ...parts, ...(client ? { upstream: client } : {}), ...overrides.parts },
    );
    return {
      ...made,
      async close() {
        await made.close();
        await client?.close();
        await overrides.parts?.sharedState?.close();
      },
    };
  };
  const bff: TestBff = { ...createBff(settings, parts), close: async () => {} };

  const call: Harness['call'] = (path, init = {}) => {
    const headers: Record<string, string> = { 'X-CSRF': '1', ...init.headers };
    if (init.cookie) headers.cookie = init.cookie;
    if (init.body !== undefined) headers['content-type'] ??= 'application/json';
    return Promise.resolve(
      bff.app.request(path, { method: init.method ?? 'GET', headers, body: init.body ?? null }),
    );
  };

  return {
    sandbox,
    recorded,
    companies,
    bff,
    logs,
    settings,
    upstreamOptions,
    parts,
    make,
    call,
    signIn: (username, password) => signInOn(bff.app, username, password),
    async walkSandbox(company, filters = {}) {
      const auth = `Basic ${Buffer.from(`${credentials.secretId}:${credentials.secretPassword}`).toString('base64')}`;
      const rows: Payment[] = [];
      let cursor: string | null = null;
      do {
        const params = new URLSearchParams({ limit: '100', ...filters });
        if (cursor) params.set('cursor', cursor);
        const response = await sandbox.app.request(`/v1/payments/?${params}`, {
          headers: { authorization: auth, 'x-company-id': company },
        });
        const page = paymentPageSchema.parse(await response.json());
        rows.push(...page.data);
        cursor = page.next_cursor;
      } while (cursor);
      return rows;
    },
    async close() {
      await parts.upstream.close();
      await parts.sharedState.close();
      sandbox.close();
    },
  };
}
