/**
 * `pnpm start`: one process serving the built SPA and `/api`, with the sandbox API embedded when
 * PAYMENTS_BASE_URL is unset. Everything is configured from the environment (see DESIGN.md) and checked
 * before anything listens; a bad value stops the start with one line naming the variable.
 */
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { serve } from '@hono/node-server';
import { createDemoUser, createUserStore, loadUsersFile, type UserStore } from './bff/auth/index.ts';
import { createBff } from './bff/index.ts';
import { fetchSandboxCompanies, loadCompaniesFile } from './config/companies.ts';
import { ConfigError, loadEnvironment, parseConfig, type Settings } from './config/env.ts';
import { gracefulCloser } from './graceful-close.ts';
import { type RunningSandbox, sandboxOptionsFromEnv, startSandbox } from './sandbox/index.ts';

/**
 * How long a stop waits for the requests in flight (a page, a CSV download) before cutting them: under the 30 s a
 * container platform usually allows between its SIGTERM and SIGKILL.
 */
const SHUTDOWN_DRAIN_MS = 25_000;
/** How long an idle keep-alive connection stays open: above the 60 s that common proxies keep theirs. */
const KEEP_ALIVE_MS = 65_000;

function stop(line: string): never {
  console.error(line);
  process.exit(1);
}

function listenError(error: unknown, what: string, host: string, port: number): never {
  const code = (error as { code?: string }).code;
  if (code === 'EADDRINUSE')
    stop(
      `${what}: port ${port} on ${host} is already in use (set ${what === 'BFF' ? 'PORT' : 'SANDBOX_PORT'} to another port)`,
    );
  if (code === 'EACCES') stop(`${what}: not allowed to listen on ${host}:${port}`);
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') stop(`${what}: cannot listen on ${host}`);
  stop(`${what}: cannot listen on ${host}:${port}: ${code ?? 'unknown error'}`);
}

async function upstreamOf(settings: Settings, env: Record<string, string | undefined>) {
  if (settings.baseUrl !== undefined) {
    // parseConfig guarantees these when PAYMENTS_BASE_URL is set.
    const credentials = { secretId: settings.secretId ?? '', secretPassword: settings.secretPassword ?? '' };
    const companies = await loadCompaniesFile(settings.companiesFile ?? '');
    return { baseUrl: settings.baseUrl, credentials, companies, sandbox: undefined };
  }
  let sandboxOptions: ReturnType<typeof sandboxOptionsFromEnv>;
  try {
    sandboxOptions = sandboxOptionsFromEnv(env);
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
  let sandbox: RunningSandbox;
  try {
    sandbox = await startSandbox({ ...sandboxOptions, host: '127.0.0.1', port: settings.sandboxPort });
  } catch (error) {
    listenError(error, 'sandbox', '127.0.0.1', settings.sandboxPort);
  }
  const tenant = sandbox.sandbox.tenants[0];
  if (!tenant) throw new ConfigError('sandbox: it has no tenant');
  const credentials = { secretId: tenant.secretId, secretPassword: tenant.secretPassword };
  const companies = settings.companiesFile
    ? await loadCompaniesFile(settings.companiesFile)
    : await fetchSandboxCompanies(sandbox.baseUrl, credentials);
  return { baseUrl: sandbox.baseUrl, credentials, companies, sandbox };
}

async function usersOf(settings: Settings): Promise<{ users: UserStore; demo: boolean }> {
  if (settings.usersFile !== undefined) {
    try {
      return { users: await loadUsersFile(settings.usersFile), demo: false };
    } catch (error) {
      throw new ConfigError(`AUTH_USERS_FILE: ${(error as Error).message}`);
    }
  }
  // parseConfig refuses production without AUTH_USERS_FILE, so this is sandbox mode.
  return { users: createUserStore([await createDemoUser(settings.demoPassword)]), demo: true };
}

async function main(): Promise<void> {
  const env = loadEnvironment();
  let settings: Settings;
  try {
    settings = parseConfig(env);
  } catch (error) {
    stop(`config error: ${(error as Error).message}`);
  }
  let upstream: Awaited<ReturnType<typeof upstreamOf>>;
  let users: Awaited<ReturnType<typeof usersOf>>;
  try {
    upstream = await upstreamOf(settings, env);
    users = await usersOf(settings);
  } catch (error) {
    if (error instanceof ConfigError) stop(`config error: ${error.message}`);
    throw error;
  }

  const bff = createBff({
    environment: settings.environment,
    // Sandbox mode only (production requires APP_SECRET): sessions and cursors then end with the process.
    appSecret: settings.appSecret ?? randomBytes(32).toString('base64url'),
    upstream: { baseUrl: upstream.baseUrl, credentials: upstream.credentials },
    companies: upstream.companies,
    users: users.users,
    timeZone: settings.timeZone,
    sessionMaxAgeSeconds: settings.sessionMaxAgeSeconds,
    trustProxy: settings.trustProxy,
    webDistDir: settings.webDistDir,
  });

  const server = await new Promise<Server>((resolve) => {
    const onListenError = (error: Error) => listenError(error, 'BFF', settings.host, settings.port);
    // An http.Server: serve() makes one unless given another createServer.
    const listening = serve({ fetch: bff.app.fetch, hostname: settings.host, port: settings.port }, () => {
      // From now on an error (such as running out of file descriptors on accept) is reported, not a start failure.
      listening.off('error', onListenError);
      listening.on('error', (error) => console.error(`BFF server error: ${error.message}`));
      resolve(listening as Server);
    });
    listening.once('error', onListenError);
  });
  // Behind a proxy (see the README), an idle connection must outlive the proxy's own idle timeout (60 s for nginx
  // and AWS load balancers): closed first by us, it can be reused by the proxy in the same moment and fail as a 502.
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  // Before the first line is printed: whoever reads it may signal us at once.
  const closeServer = gracefulCloser(server);
  let closing = false;
  const shutdown = async () => {
    // A second signal stops at once.
    if (closing) process.exit(1);
    closing = true;
    await closeServer({ drainMs: SHUTDOWN_DRAIN_MS });
    // Nobody waits for what is still asked of the upstream (a readiness probe): a short wait, not its timeout.
    await Promise.race([bff.close(), sleep(1_000)]);
    await upstream.sandbox?.close();
    process.exit(0);
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
  const { port } = server.address() as AddressInfo;
  const host = settings.host.includes(':') ? `[${settings.host}]` : settings.host;
  const mode = upstream.sandbox ? 'sandbox' : settings.environment;
  console.log(`Payments dashboard: http://${host}:${port}  (${mode})`);
  if (upstream.sandbox) console.log(`Sandbox Payments API: ${upstream.sandbox.baseUrl}`);
  if (users.demo)
    console.log(`Sign in as demo / ${settings.demoPassword}  (no AUTH_USERS_FILE: demo user created)`);
  if (settings.appSecret === undefined) console.log('APP_SECRET unset: sessions end when this process stops');
}

await main();
