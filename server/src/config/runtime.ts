import type { Company } from '@payments/shared';
import { createDemoUser, createUserStore, loadUsersFile, type UserStore } from '../bff/auth/index.ts';
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
  if (settings.usersFile !== undefined) {
    try {
      users = await loadUsersFile(settings.usersFile);
    } catch (error) {
      throw new ConfigError(`AUTH_USERS_FILE: ${(error as Error).message}`);
    }
  } else {
    // parseConfig refuses production without AUTH_USERS_FILE, so this is sandbox mode.
    users = createUserStore([await createDemoUser(settings.demoPassword)]);
  }
  return {
    baseUrl: upstream.baseUrl,
    credentials: upstream.credentials,
    companies,
    embedded,
    users,
    demoUser: settings.usersFile === undefined,
  };
}
