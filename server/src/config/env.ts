import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { AMOUNT_UNITS, type AmountUnit, ENVIRONMENTS, type Environment } from '@payments/shared';
import { z } from 'zod';
import { LOG_FORMATS, type LogFormat } from '../bff/logger.ts';
import { LIST_ORDERS, type ListOrder } from '../bff/payments/group-merge.ts';
import { fromInvocationFolder } from './invocation-folder.ts';

/** The repository root, for defaults that name files in it (`web/dist`, `.env`). */
export const REPO_ROOT = resolve(import.meta.dirname, '../../..');

/** A configuration problem, phrased as the one line the start prints: `VARIABLE: what is wrong`. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Everything the process is configured with, parsed once. Undefined means "not set". */
export interface Settings {
  environment: Environment;
  /** Unset: the embedded sandbox. */
  baseUrl: string | undefined;
  secretId: string | undefined;
  secretPassword: string | undefined;
  companiesFile: string | undefined;
  /** Unset only in sandbox mode, where a random per-process secret is used. */
  appSecret: string | undefined;
  usersFile: string | undefined;
  demoPassword: string;
  timeZone: string;
  amountUnit: AmountUnit;
  port: number;
  host: string;
  sandboxPort: number;
  sessionMaxAgeSeconds: number;
  sessionIdleSeconds: number;
  freshnessPollSeconds: number;
  /** Unset: the in-process store (one replica). */
  sharedStateUrl: string | undefined;
  trustProxy: boolean;
  webDistDir: string;
  exportLimits: { perUser: number; total: number };
  /** Unset: what the process's file-descriptor limit allows, less room for its own sockets. */
  maxConnections: number | undefined;
  maxSkipPages: number;
  summaryMaxRows: number;
  listOrder: ListOrder;
  logFormat: LogFormat | undefined;
  drainSeconds: number;
}

const port = (fallback: number) =>
  z
    .string()
    .regex(/^\d{1,5}$/, 'must be an integer 1–65535')
    .transform(Number)
    .pipe(z.number().int().min(1, 'must be an integer 1–65535').max(65535, 'must be an integer 1–65535'))
    .default(fallback);

const count = (what: string, max: number) =>
  z
    .string()
    .regex(/^\d{1,6}$/, `must be ${what}`)
    .transform(Number)
    .pipe(z.number().int().min(1, `must be ${what}`).max(max, `must be ${what}`));

/** Not empty, and not only spaces: a value of blanks is a mistake, never a setting. */
const text = z.string().regex(/\S/, 'must not be empty');

/**
 * The upstream's base address as the client resolves paths against it: its path ends with the version segment
 * (`/v1`, or a spelling such as `/v2.1` or `/v1beta`), and it carries no query, fragment or credentials (those
 * come from PAYMENTS_SECRET_*).
 */
function baseUrlProblem(value: string): string | undefined {
  if (!URL.canParse(value)) return undefined; // reported by z.url()
  const url = new URL(value);
  if (url.username !== '' || url.password !== '')
    return 'must not carry credentials; set PAYMENTS_SECRET_ID and PAYMENTS_SECRET_PASSWORD';
  if (url.search !== '' || url.hash !== '') return 'must not have a query or a fragment';
  if (!/\/v\d+[a-z\d.]*\/?$/i.test(url.pathname))
    return 'must end with the version segment, e.g. https://api.example.com/v1';
  return undefined;
}

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** Credentials that exist only for a sandbox and must never reach production (the composition names them). */
export interface ConfigRules {
  sandboxCredentials?: readonly { secretId: string; secretPassword: string }[];
}

const envSchema = (rules: ConfigRules) =>
  z
    .object({
      PAYMENTS_BASE_URL: z
        .url({
          protocol: /^https?$/,
          error: 'must be an http(s) URL including the version segment, e.g. …/v1',
        })
        .check((ctx) => {
          const problem = baseUrlProblem(ctx.value);
          if (problem !== undefined) ctx.issues.push({ code: 'custom', message: problem, input: ctx.value });
        })
        .optional(),
      PAYMENTS_SECRET_ID: text.optional(),
      PAYMENTS_SECRET_PASSWORD: text.optional(),
      PAYMENTS_ENVIRONMENT: z
        .enum(ENVIRONMENTS, { error: `must be one of ${ENVIRONMENTS.join(', ')}` })
        .default('sandbox'),
      PAYMENTS_COMPANIES_FILE: text.optional(),
      APP_SECRET: z
        .string()
        .refine(
          (value) => value.replace(/\s/g, '').length >= 32,
          'must be at least 32 characters, not counting spaces (e.g. openssl rand -base64 48)',
        )
        .optional(),
      AUTH_USERS_FILE: text.optional(),
      DEMO_PASSWORD: text.default('demo'),
      PAYMENTS_TIME_ZONE: z
        .string()
        .refine(isTimeZone, 'must be an IANA time zone such as Europe/Berlin')
        .default('UTC'),
      PAYMENTS_AMOUNT_UNIT: z.enum(AMOUNT_UNITS, { error: 'must be minor or major' }).default('minor'),
      PORT: port(3000),
      HOST: text.default('127.0.0.1'),
      SANDBOX_PORT: port(4010),
      SESSION_MAX_AGE: z
        .string()
        .regex(/^\d{1,7}$/, 'must be a number of seconds from 60 to 604800')
        .transform(Number)
        .pipe(
          z.number().min(60, 'must be at least 60 seconds').max(604_800, 'must be at most 7 days (604800)'),
        )
        .default(8 * 3600),
      SESSION_IDLE_TIMEOUT: z
        .string()
        .regex(/^\d{1,6}$/, 'must be a number of seconds from 60 to 86400')
        .transform(Number)
        .pipe(z.number().min(60, 'must be at least 60 seconds').max(86_400, 'must be at most a day (86400)'))
        .default(1800),
      SHARED_STATE_URL: text
        .refine(
          (value) => /^rediss?:\/\/[^\s]+$/.test(value) && URL.canParse(value),
          'must be a redis:// or rediss:// URL',
        )
        .optional(),
      TRUST_PROXY: z
        .enum(['1', '0', 'true', 'false'], { error: 'must be true or false' })
        .transform((v) => v === '1' || v === 'true')
        .default(false),
      WEB_DIST_DIR: text.default(join(REPO_ROOT, 'web', 'dist')),
      MAX_CONNECTIONS: count('a whole number of connections from 1 to 1000000', 1_000_000).optional(),
      DATE_TO_MAX_SKIP_PAGES: count('a whole number of pages from 1 to 1000000', 1_000_000).default(2_000),
      PAYMENTS_LIST_ORDER: z
        .enum(LIST_ORDERS, { error: `must be one of ${LIST_ORDERS.join(', ')}` })
        .default('created_at_desc'),
      LOG_FORMAT: z.enum(LOG_FORMATS, { error: `must be one of ${LOG_FORMATS.join(', ')}` }).optional(),
      // Under the 30 s a container platform usually allows between its SIGTERM and SIGKILL.
      SHUTDOWN_DRAIN_SECONDS: count('a whole number of seconds from 1 to 3600', 3_600).default(25),
      SUMMARY_MAX_ROWS: count('a whole number of rows from 1 to 100000000', 100_000_000).default(1_000_000),
      FRESHNESS_POLL_SECONDS: count('a whole number of seconds from 1 to 3600', 3_600).default(60),
      EXPORT_MAX_PER_USER: count('a whole number of downloads from 1 to 100', 100).default(2),
      EXPORT_MAX_TOTAL: count('a whole number of downloads from 1 to 10000', 10_000).default(16),
    })
    .superRefine((env, ctx) => {
      const need = (name: keyof typeof env, why: string) => {
        if (env[name] === undefined) ctx.addIssue({ code: 'custom', path: [name], message: why });
      };
      if (env.PAYMENTS_ENVIRONMENT === 'production') {
        need('PAYMENTS_BASE_URL', 'is required in production (the sandbox is never embedded there)');
        need('APP_SECRET', 'is required in production');
        need('AUTH_USERS_FILE', 'is required in production (there is no demo user)');
        const sandboxIds = (rules.sandboxCredentials ?? []).map((c) => c.secretId);
        const sandboxPasswords = (rules.sandboxCredentials ?? []).map((c) => c.secretPassword);
        if (
          sandboxIds.includes(env.PAYMENTS_SECRET_ID ?? '') ||
          sandboxPasswords.includes(env.PAYMENTS_SECRET_PASSWORD ?? '')
        )
          ctx.addIssue({
            code: 'custom',
            path: ['PAYMENTS_SECRET_ID'],
            message: 'the sandbox credentials cannot be used in production',
          });
      }
      if (env.SHARED_STATE_URL !== undefined)
        need('APP_SECRET', "is required with SHARED_STATE_URL (replicas open each other's sessions with it)");
      if (env.PAYMENTS_BASE_URL !== undefined) {
        need('PAYMENTS_SECRET_ID', 'is required when PAYMENTS_BASE_URL is set');
        need('PAYMENTS_SECRET_PASSWORD', 'is required when PAYMENTS_BASE_URL is set');
        need(
          'PAYMENTS_COMPANIES_FILE',
          'is required when PAYMENTS_BASE_URL is set (the API cannot list companies)',
        );
      }
    });

/**
 * Parses the environment once. Empty values count as unset (a blank line in `.env` must not mean "empty
 * password"). Throws ConfigError naming the first bad variable.
 */
export function parseConfig(env: Record<string, string | undefined>, rules: ConfigRules = {}): Settings {
  const schema = envSchema(rules);
  const present = Object.fromEntries(
    Object.keys(schema.shape)
      .map((name) => [name, env[name]] as const)
      .filter(([, value]) => value !== undefined && value !== ''),
  );
  const result = schema.safeParse(present);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new ConfigError(`${String(issue?.path[0] ?? 'environment')}: ${issue?.message ?? 'is invalid'}`);
  }
  const e = result.data;
  const path = (value: string | undefined) =>
    value === undefined ? undefined : fromInvocationFolder(value, env);
  return {
    environment: e.PAYMENTS_ENVIRONMENT,
    baseUrl: e.PAYMENTS_BASE_URL,
    secretId: e.PAYMENTS_SECRET_ID,
    secretPassword: e.PAYMENTS_SECRET_PASSWORD,
    companiesFile: path(e.PAYMENTS_COMPANIES_FILE),
    appSecret: e.APP_SECRET,
    usersFile: path(e.AUTH_USERS_FILE),
    demoPassword: e.DEMO_PASSWORD,
    timeZone: e.PAYMENTS_TIME_ZONE,
    amountUnit: e.PAYMENTS_AMOUNT_UNIT,
    port: e.PORT,
    host: e.HOST,
    sandboxPort: e.SANDBOX_PORT,
    sessionMaxAgeSeconds: e.SESSION_MAX_AGE,
    sessionIdleSeconds: e.SESSION_IDLE_TIMEOUT,
    freshnessPollSeconds: e.FRESHNESS_POLL_SECONDS,
    sharedStateUrl: e.SHARED_STATE_URL,
    trustProxy: e.TRUST_PROXY,
    webDistDir: fromInvocationFolder(e.WEB_DIST_DIR, env),
    exportLimits: { perUser: e.EXPORT_MAX_PER_USER, total: e.EXPORT_MAX_TOTAL },
    maxConnections: e.MAX_CONNECTIONS,
    maxSkipPages: e.DATE_TO_MAX_SKIP_PAGES,
    summaryMaxRows: e.SUMMARY_MAX_ROWS,
    listOrder: e.PAYMENTS_LIST_ORDER,
    logFormat: e.LOG_FORMAT,
    drainSeconds: e.SHUTDOWN_DRAIN_SECONDS,
  };
}

/** The one place that reads `process.env`, after `.env` (working directory first, then the repository root). */
export function loadEnvironment(): Record<string, string | undefined> {
  for (const file of [resolve('.env'), join(REPO_ROOT, '.env')]) {
    if (existsSync(file)) {
      process.loadEnvFile(file);
      break;
    }
  }
  return { ...process.env };
}
