import { randomBytes } from 'node:crypto';
import type { Company } from '@payments/shared';
import { Hono } from 'hono';
import { fetchSandboxCompanies } from '../../config/companies.ts';
import { createSandbox, type Sandbox, type SandboxOptions } from '../../sandbox/index.ts';
import { createEmbeddedState } from '../../shared-state/index.ts';
import { type LoopbackServer, serveOnLoopback } from '../../upstream/testing/serve-on-loopback.ts';
import {
  type AuthUser,
  createAuthenticator,
  createUserStore,
  hashPassword,
  type UserStore,
  unmatchableHash,
} from '../auth/index.ts';
import { type BffConfig, createBff } from '../create-bff.ts';
import { FAST_TEST_COST } from './test-costs.ts';

/** What reached the upstream: for "nothing invalid forwarded" and "no upstream request made". */
export interface RecordedRequest {
  path: string;
  query: Record<string, string[]>;
  headers: Record<string, string>;
}

export const PASSWORD = 'correct horse battery';

/** Test users: everything, one child company alone, and a child with its descendants. */
export async function testUsers(): Promise<UserStore> {
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

export interface Harness {
  sandbox: Sandbox;
  /** The sandbox behind a recording proxy on loopback: `${origin}/v1` is the BFF's upstream. */
  upstream: LoopbackServer;
  recorded: RecordedRequest[];
  companies: Company[];
  appSecret: string;
  bff: ReturnType<typeof createBff>;
  logs: string[];
  config: BffConfig;
  /** Signs in through the API and returns the `Cookie` header value. */
  signIn(username?: string, password?: string): Promise<string>;
  /** A same-origin API call with the anti-forgery header, and the cookie when given. */
  call(
    path: string,
    init?: { cookie?: string; headers?: Record<string, string>; method?: string; body?: string },
  ): Promise<Response>;
  close(): Promise<void>;
}

export async function createHarness(
  options: { sandbox?: SandboxOptions; bff?: Partial<BffConfig> } = {},
): Promise<Harness> {
  const sandbox = createSandbox({ seedCount: 2_000, ...options.sandbox });
  const recorded: RecordedRequest[] = [];
  const proxy = new Hono();
  proxy.all('*', (c) => {
    const headers = c.req.header();
    recorded.push({ path: c.req.path, query: c.req.queries(), headers });
    return sandbox.app.fetch(c.req.raw);
  });
  const upstream = await serveOnLoopback(proxy);
  const tenant = sandbox.tenants[0];
  if (!tenant) throw new Error('sandbox without tenants');
  const credentials = { secretId: tenant.secretId, secretPassword: tenant.secretPassword };
  const companies = await fetchSandboxCompanies(`${upstream.origin}/v1`, credentials);
  recorded.length = 0;
  const users = await testUsers();
  const logs: string[] = [];
  const appSecret = randomBytes(32).toString('base64url');
  const config: BffConfig = {
    environment: 'sandbox',
    appSecret,
    upstream: { baseUrl: `${upstream.origin}/v1`, credentials, backoffBaseMs: 5, backoffCapMs: 20 },
    companies,
    users,
    authenticator: testAuthenticator(users),
    webDistDir: null,
    logger: (line) => logs.push(line),
    // Shared by every BFF made from this config, as replicas share one store.
    sharedState: createEmbeddedState(options.bff?.now ? { now: options.bff.now } : {}),
    ...options.bff,
  };
  const bff = createBff(config);

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
    upstream,
    recorded,
    companies,
    appSecret,
    bff,
    logs,
    config,
    call,
    signIn: (username, password) => signInOn(bff.app, username, password),
    async close() {
      await bff.close();
      await config.sharedState?.close();
      await upstream.close();
      sandbox.close();
    },
  };
}
