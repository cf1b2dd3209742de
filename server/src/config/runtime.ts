import type { Company } from '@payments/shared';
import { createDemoUser, createUserStore, type UserStore, watchUsersFile } from '../bff/auth/index.ts';
import { logEvent, stdoutLogger } from '../bff/logger.ts';
import { createEmbeddedState, createRedisState, type SharedState } from '../shared-state/index.ts';
import type { UpstreamCredentials } from '../upstream/index.ts';
import { loadCompaniesFile } from './companies.ts';
import { ConfigError, type Settings } from './env.ts';

/** An upstream started in this process when none is configured (the sandbox; the composition knows which). */
export interface EmbeddedUpstream {
  baseUrl: string;
  credentials: UpstreamCredentials;
  companies: Company[];
  close(): Promise<void>;
}

export interface Runtime {
  baseUrl: string;
  credentials: UpstreamCredentials;
  companies: Company[];
  embedded: EmbeddedUpstream | undefined;
  users: UserStore;
  /** No users file: the sandbox's demo user was made. */
  demoUser: boolean;
  sharedState: SharedState;
  /** Stops watching the users file and closes the shared state. */
  close(): Promise<void>;
}

/** What the settings name, loaded: the upstream (configured, or embedded), its companies, the users. */
export async function resolveRuntime(
  settings: Settings,
  startEmbedded: () => Promise<EmbeddedUpstream>,
): Promise<Runtime> {
  const embedded = settings.baseUrl === undefined ? await startEmbedded() : undefined;
  const upstream = embedded ?? {
    baseUrl: settings.baseUrl ?? '',
    // parseConfig guarantees these when PAYMENTS_BASE_URL is set.
    credentials: { secretId: settings.secretId ?? '', secretPassword: settings.secretPassword ?? '' },
    companies: [],
  };
  const companies =
    settings.companiesFile !== undefined
      ? await loadCompaniesFile(settings.companiesFile)
      : upstream.companies;
  let users: UserStore;
  let stopWatching = () => {};
  if (settings.usersFile !== undefined) {
    try {
      const watched = await watchUsersFile(settings.usersFile, (event) =>
        event.ok
          ? logEvent(stdoutLogger, 'info', { msg: 'users_reloaded', users: event.users })
          : logEvent(stdoutLogger, 'error', { msg: 'users_file_unreadable', problem: event.problem }),
      );
      users = watched;
      stopWatching = () => watched.close();
    } catch (error) {
      throw new ConfigError(`AUTH_USERS_FILE: ${(error as Error).message}`);
    }
  } else {
    // parseConfig refuses production without AUTH_USERS_FILE, so this is sandbox mode.
    users = createUserStore([await createDemoUser(settings.demoPassword)]);
  }
  const sharedState =
    settings.sharedStateUrl === undefined
      ? createEmbeddedState()
      : createRedisState({
          url: settings.sharedStateUrl,
          onError: (problem) => logEvent(stdoutLogger, 'error', { msg: 'shared_state_error', problem }),
        });
  return {
    baseUrl: upstream.baseUrl,
    credentials: upstream.credentials,
    companies,
    embedded,
    users,
    demoUser: settings.usersFile === undefined,
    sharedState,
    close: async () => {
      stopWatching();
      await sharedState.close();
    },
  };
}
