import { isDateTime } from '@payments/shared';
import type { SandboxOptions } from './create-sandbox.ts';
import { MAX_LIVE_RATE, MAX_SEED_COUNT } from './create-sandbox.ts';
import { parseFaults } from './faults.ts';
import { DEFAULT_HOST, DEFAULT_PORT, startSandbox } from './start-sandbox.ts';
import { type Credentials, DEFAULT_CREDENTIALS } from './tenants.ts';

type Env = Readonly<Record<string, string | undefined>>;

/** An empty variable counts as unset, as in most `.env` tooling. */
function read(env: Env, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

function integer(env: Env, name: string, min: number, max: number): number | undefined {
  const value = read(env, name);
  if (value === undefined) return undefined;
  if (!/^-?\d{1,16}$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new Error(`${name} must be an integer from ${min} to ${max}, not ${JSON.stringify(value)}`);
  }
  return Number(value);
}

function credentials(env: Env, idName: string, passwordName: string, fallback: Credentials): Credentials {
  const secretId = read(env, idName) ?? fallback.secretId;
  const secretPassword = read(env, passwordName) ?? fallback.secretPassword;
  // HTTP Basic splits at the first colon, so an id with one could never sign in.
  if (secretId.includes(':')) throw new Error(`${idName} must not contain ":"`);
  if (!/^[\x20-\x7e]+$/.test(secretId)) throw new Error(`${idName} must be printable ASCII`);
  if (!/^[\x20-\x7e]+$/.test(secretPassword)) throw new Error(`${passwordName} must be printable ASCII`);
  return { secretId, secretPassword };
}

/** A date (midnight UTC) or a date-time with its zone, or undefined when unset; else an Error naming `name`. */
function instant(env: Env, name: string, example: string): Date | undefined {
  const value = read(env, name);
  if (value === undefined) return undefined;
  // A date alone means midnight UTC; a date-time needs its zone, or it would depend on the machine's.
  const match = /^(\d{4}-\d{2}-\d{2})(?:T(\d{2}:\d{2}:\d{2})(?:Z|[+-]\d{2}:\d{2}))?$/.exec(value);
  const real = match !== null && isDateTime(`${match[1]}T${match[2] ?? '00:00:00'}`);
  const date = new Date(real ? value : Number.NaN);
  if (Number.isNaN(date.getTime()))
    throw new Error(`${name} must be a date (${example}) or a date-time with zone (${example}T00:00:00Z)`);
  return date;
}

/** Reads the `SANDBOX_*` variables; a bad value throws an Error that names the variable. */
export function sandboxOptionsFromEnv(env: Env): SandboxOptions {
  const options: SandboxOptions = {};
  const seedCount = integer(env, 'SANDBOX_SEED_COUNT', 0, MAX_SEED_COUNT);
  if (seedCount !== undefined) options.seedCount = seedCount;
  const seed = integer(env, 'SANDBOX_SEED', -(2 ** 31), 2 ** 32 - 1);
  if (seed !== undefined) options.seed = seed;

  const liveRate = read(env, 'SANDBOX_LIVE_RATE');
  if (liveRate !== undefined) {
    if (!/^\d+(\.\d+)?$/.test(liveRate) || Number(liveRate) > MAX_LIVE_RATE) {
      throw new Error(`SANDBOX_LIVE_RATE must be a number of payments per second from 0 to ${MAX_LIVE_RATE}`);
    }
    options.liveRate = Number(liveRate);
  }

  const faults = read(env, 'SANDBOX_FAULTS');
  if (faults !== undefined) {
    try {
      options.faults = parseFaults(faults);
    } catch (error) {
      throw new Error(`SANDBOX_FAULTS: ${(error as Error).message}`);
    }
  }

  const sunset = instant(env, 'SANDBOX_SUNSET', '2027-07-01');
  if (sunset !== undefined) options.sunset = sunset;
  // A first run shows the two years up to now, so every preset ("Last month" …) has payments; tests pin it.
  options.seedEnd = instant(env, 'SANDBOX_SEED_END', '2026-06-01') ?? new Date(Date.now());

  const cursorSecret = read(env, 'SANDBOX_CURSOR_SECRET');
  if (cursorSecret !== undefined) options.cursorSecret = cursorSecret;

  options.credentials = {
    sandbox: credentials(env, 'SANDBOX_SECRET_ID', 'SANDBOX_SECRET_PASSWORD', DEFAULT_CREDENTIALS.sandbox),
    other: credentials(
      env,
      'SANDBOX_OTHER_SECRET_ID',
      'SANDBOX_OTHER_SECRET_PASSWORD',
      DEFAULT_CREDENTIALS.other,
    ),
  };
  if (options.credentials.sandbox?.secretId === options.credentials.other?.secretId) {
    throw new Error('SANDBOX_SECRET_ID and SANDBOX_OTHER_SECRET_ID must differ');
  }
  return options;
}

/** Where `pnpm sandbox` listens: `SANDBOX_HOST` and `SANDBOX_PORT`. */
export function sandboxListenFromEnv(env: Env): { host: string; port: number } {
  const port = integer(env, 'SANDBOX_PORT', 0, 65_535) ?? DEFAULT_PORT;
  const host = read(env, 'SANDBOX_HOST') ?? DEFAULT_HOST;
  if (!/^[A-Za-z0-9.:[\]-]{1,255}$/.test(host))
    throw new Error('SANDBOX_HOST must be a host name or address');
  return { host, port };
}

/**
 * The sandbox as the dashboard's upstream when none is configured (`pnpm start` without PAYMENTS_BASE_URL): its
 * settings from the environment, on 127.0.0.1, with the first tenant's credentials and company tree.
 */
export async function startEmbeddedSandbox(env: Record<string, string | undefined>, port: number) {
  const running = await startSandbox({ ...sandboxOptionsFromEnv(env), host: DEFAULT_HOST, port });
  const tenant = running.sandbox.tenants[0];
  if (!tenant) throw new Error('the sandbox has no tenant');
  return {
    baseUrl: running.baseUrl,
    credentials: { secretId: tenant.secretId, secretPassword: tenant.secretPassword },
    companies: tenant.companies,
    close: running.close,
  };
}
