/**
 * The composition: settings from the environment, then the parts they name (the upstream, configured or the
 * embedded sandbox; its companies; the users; the shared state), then the BFF. The only module besides tests that
 * knows the sandbox.
 */
import { randomBytes } from 'node:crypto';
import { rootCompany } from '@payments/shared';
import { createDemoUser, createUserStore, type UserStore, watchUsersFile } from './bff/auth/index.ts';
import { createBff } from './bff/create-bff.ts';
import { loadCompaniesFile } from './config/companies.ts';
import { ConfigError, parseSettings } from './config/settings.ts';
import { logEvent, setLogFormat, stdoutLogger } from './runtime/logger.ts';
import { createMetrics, serveMetrics } from './runtime/metrics.ts';
import { embeddedStartFailure } from './runtime/serve.ts';
import { DEFAULT_CREDENTIALS, startEmbeddedSandbox } from './sandbox/index.ts';
import { createEmbeddedState, createRedisState } from './shared-state/index.ts';
import { createUpstreamBudget, createUpstreamClient } from './upstream/index.ts';

const log = (level: 'info' | 'error', fields: Record<string, unknown>) =>
  logEvent(stdoutLogger, level, fields);

async function loadUsers(file: string | undefined, demoPassword: string, requireTotp: boolean) {
  // parseSettings refuses production (and AUTH_REQUIRE_TOTP) without AUTH_USERS_FILE: this is sandbox mode.
  if (file === undefined) return { users: createUserStore([await createDemoUser(demoPassword)]), close() {} };
  try {
    const watched = await watchUsersFile(
      file,
      (event) =>
        event.ok
          ? log('info', { msg: 'users_reloaded', users: event.users })
          : log('error', { msg: 'users_file_unreadable', problem: event.problem }),
      { requireTotp },
    );
    return { users: watched as UserStore, close: () => watched.close() };
  } catch (error) {
    throw new ConfigError(`AUTH_USERS_FILE: ${(error as Error).message}`);
  }
}

export async function compose(env: Record<string, string | undefined>) {
  const settings = parseSettings(env, { sandboxCredentials: Object.values(DEFAULT_CREDENTIALS) });
  setLogFormat(settings.LOG_FORMAT);
  const embedded =
    settings.PAYMENTS_BASE_URL === undefined
      ? await startEmbeddedSandbox(env).catch(embeddedStartFailure)
      : undefined;
  const upstreamAt = embedded ?? {
    baseUrl: settings.PAYMENTS_BASE_URL ?? '',
    // parseSettings requires these when PAYMENTS_BASE_URL is set.
    credentials: {
      secretId: settings.PAYMENTS_SECRET_ID ?? '',
      secretPassword: settings.PAYMENTS_SECRET_PASSWORD ?? '',
    },
    companies: [],
  };
  const companies =
    settings.PAYMENTS_COMPANIES_FILE !== undefined
      ? await loadCompaniesFile(settings.PAYMENTS_COMPANIES_FILE)
      : upstreamAt.companies;
  const users = await loadUsers(settings.AUTH_USERS_FILE, settings.DEMO_PASSWORD, settings.AUTH_REQUIRE_TOTP);
  const sharedState =
    settings.SHARED_STATE_URL === undefined
      ? createEmbeddedState()
      : createRedisState({
          url: settings.SHARED_STATE_URL,
          onError: (problem) => log('error', { msg: 'shared_state_error', problem }),
        });
  const metrics = createMetrics();
  const budget = createUpstreamBudget({
    state: sharedState,
    maxRps: settings.UPSTREAM_MAX_RPS,
    maxConcurrency: settings.UPSTREAM_MAX_CONCURRENCY,
    onWait: (cls, ms) => metrics.budgetWaitSeconds.observe({ class: cls }, ms / 1000),
  });
  const upstream = createUpstreamClient({
    baseUrl: upstreamAt.baseUrl,
    credentials: upstreamAt.credentials,
    ownCompanyId: rootCompany(companies).id,
    budget,
    pageReuseMs: settings.UPSTREAM_PAGE_REUSE_MS,
    log: (event) => logEvent(stdoutLogger, 'warn', { msg: 'upstream', ...event }),
    observe: (event) => {
      if (event.kind === 'shared') return metrics.sharedAnswers.inc({ how: event.how });
      metrics.upstreamRequests.inc({ outcome: event.outcome, class: event.cls });
      metrics.upstreamSeconds.observe({ class: event.cls }, event.seconds);
      if (event.outcome === '429') metrics.upstreamRefused.inc();
    },
  });
  const metricsServer =
    settings.METRICS_PORT === undefined ? undefined : await serveMetrics(metrics, settings.METRICS_PORT);
  const bff = createBff(
    // Sandbox mode only (production requires APP_SECRET): sessions and cursors then end with the process.
    { ...settings, APP_SECRET: settings.APP_SECRET ?? randomBytes(32).toString('base64url') },
    { upstream, companies, users: users.users, sharedState, metrics },
  );
  return {
    settings,
    bff,
    embedded,
    demoUser: settings.AUTH_USERS_FILE === undefined,
    /** Releases everything the composition opened. */
    close: async () => {
      users.close();
      await bff.close();
      budget.close();
      await Promise.all([upstream.close(), sharedState.close(), embedded?.close(), metricsServer?.close()]);
    },
  };
}
