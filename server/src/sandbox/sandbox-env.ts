import { isDateTime } from '@payments/shared';
import { z } from 'zod';
import type { SandboxOptions } from './create-sandbox.ts';
import { MAX_LIVE_RATE, MAX_SEED_COUNT } from './create-sandbox.ts';
import { parseFaults } from './faults.ts';
import { DEFAULT_HOST, DEFAULT_PORT, startSandbox } from './start-sandbox.ts';
import { DEFAULT_CREDENTIALS } from './tenants.ts';

type Env = Readonly<Record<string, string | undefined>>;

/** An empty variable counts as unset, as in most `.env` tooling; values are trimmed. */
const unsetIfBlank = <S extends z.ZodType>(schema: S) =>
  z.preprocess((value) => (typeof value === 'string' ? value.trim() || undefined : value), schema);

const integer = (min: number, max: number) =>
  z
    .string()
    .regex(/^-?\d{1,16}$/, `must be an integer from ${min} to ${max}`)
    .transform(Number)
    .refine((n) => n >= min && n <= max, `must be an integer from ${min} to ${max}`);

/** Printable ASCII: what HTTP Basic carries; an id may not hold the colon it is split at. */
const secret = (kind: 'id' | 'password') =>
  z
    .string()
    .regex(/^[\x20-\x7e]+$/, 'must be printable ASCII')
    .refine((value) => kind === 'password' || !value.includes(':'), 'must not contain ":"');

/** A date alone means midnight UTC; a date-time needs its zone, or it would depend on the machine's. */
const instant = z.string().transform((value, ctx) => {
  const match = /^(\d{4}-\d{2}-\d{2})(?:T(\d{2}:\d{2}:\d{2})(?:Z|[+-]\d{2}:\d{2}))?$/.exec(value);
  const real = match !== null && isDateTime(`${match[1]}T${match[2] ?? '00:00:00'}`);
  const date = new Date(real ? value : Number.NaN);
  if (!Number.isNaN(date.getTime())) return date;
  ctx.issues.push({
    code: 'custom',
    input: value,
    message: 'must be a date (2026-06-01) or a date-time with zone (2026-06-01T00:00:00Z)',
  });
  return z.NEVER;
});

const faults = z.string().transform((value, ctx) => {
  try {
    return parseFaults(value);
  } catch (error) {
    ctx.issues.push({ code: 'custom', input: value, message: (error as Error).message });
    return z.NEVER;
  }
});

/**
 * Every `SANDBOX_*` variable, each declared once with its rule and default: the one place the sandbox's
 * settings are read, by `pnpm sandbox` and by the BFF's embedded sandbox alike.
 */
const sandboxEnvSchema = z
  .object({
    /** 0: any free port. */
    SANDBOX_PORT: unsetIfBlank(integer(0, 65_535).default(DEFAULT_PORT)),
    SANDBOX_HOST: unsetIfBlank(
      z
        .string()
        .regex(/^[A-Za-z0-9.:[\]-]{1,255}$/, 'must be a host name or address')
        .default(DEFAULT_HOST),
    ),
    SANDBOX_SEED_COUNT: unsetIfBlank(integer(0, MAX_SEED_COUNT).optional()),
    SANDBOX_SEED: unsetIfBlank(integer(-(2 ** 31), 2 ** 32 - 1).optional()),
    SANDBOX_LIVE_RATE: unsetIfBlank(
      z
        .string()
        .regex(/^\d+(\.\d+)?$/, `must be a number of payments per second from 0 to ${MAX_LIVE_RATE}`)
        .transform(Number)
        .refine(
          (n) => n <= MAX_LIVE_RATE,
          `must be a number of payments per second from 0 to ${MAX_LIVE_RATE}`,
        )
        .optional(),
    ),
    SANDBOX_FAULTS: unsetIfBlank(faults.optional()),
    SANDBOX_SUNSET: unsetIfBlank(instant.optional()),
    SANDBOX_SEED_END: unsetIfBlank(instant.optional()),
    SANDBOX_CURSOR_SECRET: unsetIfBlank(z.string().optional()),
    SANDBOX_SECRET_ID: unsetIfBlank(secret('id').default(DEFAULT_CREDENTIALS.sandbox.secretId)),
    SANDBOX_SECRET_PASSWORD: unsetIfBlank(
      secret('password').default(DEFAULT_CREDENTIALS.sandbox.secretPassword),
    ),
    SANDBOX_OTHER_SECRET_ID: unsetIfBlank(secret('id').default(DEFAULT_CREDENTIALS.other.secretId)),
    SANDBOX_OTHER_SECRET_PASSWORD: unsetIfBlank(
      secret('password').default(DEFAULT_CREDENTIALS.other.secretPassword),
    ),
  })
  .refine((env) => env.SANDBOX_SECRET_ID !== env.SANDBOX_OTHER_SECRET_ID, {
    path: ['SANDBOX_OTHER_SECRET_ID'],
    message: 'must differ from SANDBOX_SECRET_ID',
  });

/** The `SANDBOX_*` variables, checked; a bad value throws an Error that names the variable. */
function sandboxEnv(env: Env) {
  const parsed = sandboxEnvSchema.safeParse(env);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new Error(`${String(issue?.path[0] ?? 'SANDBOX')}: ${issue?.message ?? 'is invalid'}`);
}

/** The sandbox's options from the `SANDBOX_*` variables (those unset are left to createSandbox's defaults). */
export function sandboxOptionsFromEnv(env: Env): SandboxOptions {
  const read = sandboxEnv(env);
  const options: SandboxOptions = {
    credentials: {
      sandbox: { secretId: read.SANDBOX_SECRET_ID, secretPassword: read.SANDBOX_SECRET_PASSWORD },
      other: { secretId: read.SANDBOX_OTHER_SECRET_ID, secretPassword: read.SANDBOX_OTHER_SECRET_PASSWORD },
    },
  };
  if (read.SANDBOX_SEED_COUNT !== undefined) options.seedCount = read.SANDBOX_SEED_COUNT;
  if (read.SANDBOX_SEED !== undefined) options.seed = read.SANDBOX_SEED;
  if (read.SANDBOX_LIVE_RATE !== undefined) options.liveRate = read.SANDBOX_LIVE_RATE;
  if (read.SANDBOX_FAULTS !== undefined) options.faults = read.SANDBOX_FAULTS;
  if (read.SANDBOX_SUNSET !== undefined) options.sunset = read.SANDBOX_SUNSET;
  // A first run shows the two years up to now, so every preset ("Last month" …) has payments; tests pin it.
  options.seedEnd = read.SANDBOX_SEED_END ?? new Date(Date.now());
  if (read.SANDBOX_CURSOR_SECRET !== undefined) options.cursorSecret = read.SANDBOX_CURSOR_SECRET;
  return options;
}

/** Where the sandbox listens: `SANDBOX_HOST` and `SANDBOX_PORT`. */
export function sandboxListenFromEnv(env: Env): { host: string; port: number } {
  const read = sandboxEnv(env);
  return { host: read.SANDBOX_HOST, port: read.SANDBOX_PORT };
}

/**
 * The sandbox as the dashboard's upstream when none is configured (`pnpm start` without PAYMENTS_BASE_URL): its
 * settings from the environment, on 127.0.0.1, with the first tenant's credentials and company tree.
 */
export async function startEmbeddedSandbox(env: Env) {
  const { port } = sandboxListenFromEnv(env);
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
