import { existsSync } from 'node:fs';
import { isIP } from 'node:net';
import { join, resolve } from 'node:path';
import { AMOUNT_UNITS, ENVIRONMENTS, isTimeZone } from '@payments/shared';
import { z } from 'zod';

/** The repository root, for defaults that name files in it (`web/dist`, `.env`). */
export const REPO_ROOT = resolve(import.meta.dirname, '../../..');

/** The order the upstream lists payments in, which the walks rely on and check (PAYMENTS_LIST_ORDER). */
const LIST_ORDERS = ['created_at_desc', 'created_at_asc'] as const;
export type ListOrder = (typeof LIST_ORDERS)[number];

export const LOG_FORMATS = ['pretty', 'json'] as const;

/** A configuration problem, phrased as the one line the start prints: `VARIABLE: what is wrong`. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

const whole = (what: string, min: number, max: number) =>
  z
    .string()
    .regex(/^\d{1,9}$/, `must be ${what}`)
    .transform(Number)
    .pipe(z.number().int().min(min, `must be ${what}`).max(max, `must be ${what}`));

const port = (fallback: number) => whole('an integer 1–65535', 1, 65_535).default(fallback);

/** Not empty, and not only spaces: a value of blanks is a mistake, never a setting. */
const text = z.string().regex(/\S/, 'must not be empty');

const flag = z
  .enum(['1', '0', 'true', 'false'], { error: 'must be true or false' })
  .transform((v) => v === '1' || v === 'true');

/** One proxy as a CIDR, `10.0.0.5` → `10.0.0.5/32`; null when it is neither an address nor a CIDR. */
function proxyCidr(entry: string): string | null {
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  const bits = family === 6 ? 128 : 32;
  if (family === 0 || rest.length > 0) return null;
  if (prefix === undefined) return `${address}/${bits}`;
  if (!/^\d{1,3}$/.test(prefix) || Number(prefix) > bits) return null;
  return `${address}/${Number(prefix)}`;
}

/**
 * The proxies whose forwarded headers are believed, as CIDRs. `false` is none, as unset is; `true` is refused:
 * it used to trust whatever connected, so any client could name itself in X-Forwarded-For.
 */
const proxies = z.string().transform((value, ctx) => {
  if (value.trim() === 'false') return [];
  if (value.trim() === 'true') {
    ctx.issues.push({
      code: 'custom',
      input: value,
      message:
        "must name the proxies' addresses or CIDRs (e.g. 10.0.0.5,10.0.1.0/24); true is no longer taken",
    });
    return z.NEVER;
  }
  const cidrs = value.split(',').map((entry) => proxyCidr(entry.trim()));
  const bad = cidrs.indexOf(null);
  if (bad >= 0) {
    ctx.issues.push({
      code: 'custom',
      input: value,
      message: `"${value.split(',')[bad]?.trim()}" is not an IPv4 or IPv6 address or CIDR`,
    });
    return z.NEVER;
  }
  return cidrs as string[];
});

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

/** Credentials that exist only for a sandbox and must never reach production (the composition names them). */
export interface ConfigRules {
  sandboxCredentials?: readonly { secretId: string; secretPassword: string }[];
}

/**
 * Every setting of the process: its environment variable, its type and its default, here and nowhere else. The
 * code reads `settings.NAME` where the setting is used; README's table says what each means. Paths are taken
 * from the folder the command was typed in (`invocation`).
 */
const settingsSchema = (rules: ConfigRules, invocation: string) => {
  const path = text.transform((value) => resolve(invocation, value));
  return z
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
      PAYMENTS_COMPANIES_FILE: path.optional(),
      /** Unset only in sandbox mode, where a random per-process secret is used. */
      APP_SECRET: z
        .string()
        .refine(
          (value) => value.replace(/\s/g, '').length >= 32,
          'must be at least 32 characters, not counting spaces (e.g. openssl rand -base64 48)',
        )
        .optional(),
      AUTH_USERS_FILE: path.optional(),
      AUTH_REQUIRE_TOTP: flag.default(false),
      DEMO_PASSWORD: text.default('demo'),
      PAYMENTS_TIME_ZONE: z
        .string()
        .refine(isTimeZone, 'must be an IANA time zone such as Europe/Berlin')
        .default('UTC'),
      PAYMENTS_AMOUNT_UNIT: z.enum(AMOUNT_UNITS, { error: 'must be minor or major' }).default('minor'),
      PAYMENTS_SETTLED_STATUSES: z
        .string()
        .regex(
          /^[A-Za-z0-9_.:-]{1,64}(,[A-Za-z0-9_.:-]{1,64}){0,19}$/,
          'must be statuses separated by commas, e.g. COMPLETED',
        )
        .transform((value) => value.split(','))
        .default(['COMPLETED']),
      PAYMENTS_LIST_ORDER: z
        .enum(LIST_ORDERS, { error: `must be one of ${LIST_ORDERS.join(', ')}` })
        .default('created_at_desc'),
      PORT: port(3000),
      HOST: text.default('127.0.0.1'),
      SESSION_MAX_AGE: whole('a number of seconds from 60 to 604800 (7 days)', 60, 604_800).default(8 * 3600),
      SESSION_IDLE_TIMEOUT: whole('a number of seconds from 60 to 86400 (a day)', 60, 86_400).default(1800),
      SHARED_STATE_URL: text
        .refine(
          (value) => /^rediss?:\/\/[^\s]+$/.test(value) && URL.canParse(value),
          'must be a redis:// or rediss:// URL',
        )
        .optional(),
      TRUST_PROXY: proxies.default([]),
      WEB_DIST_DIR: path.default(join(REPO_ROOT, 'web', 'dist')),
      /** Unset: what the process's file-descriptor limit allows, less room for its own sockets. */
      MAX_CONNECTIONS: whole('a whole number of connections from 1 to 1000000', 1, 1_000_000).optional(),
      MAX_CONNECTIONS_PER_ADDRESS: whole(
        'a whole number of connections from 1 to 1000000',
        1,
        1_000_000,
      ).default(256),
      KEEP_ALIVE_TIMEOUT: whole('a whole number of seconds from 1 to 600', 1, 600).default(5),
      DATE_TO_MAX_SKIP_PAGES: whole('a whole number of pages from 1 to 1000000', 1, 1_000_000).default(2_000),
      /** Unset: pretty on a terminal, else JSON. */
      LOG_FORMAT: z.enum(LOG_FORMATS, { error: `must be one of ${LOG_FORMATS.join(', ')}` }).optional(),
      // Under the 30 s a container platform usually allows between its SIGTERM and SIGKILL.
      SHUTDOWN_DRAIN_SECONDS: whole('a whole number of seconds from 1 to 3600', 1, 3_600).default(25),
      SUMMARY_MAX_ROWS: whole('a whole number of rows from 1 to 100000000', 1, 100_000_000).default(
        1_000_000,
      ),
      /** Rows a sorted view may hold: the BFF keeps them all to sort them (see sorted-views.ts). */
      SORT_MAX_ROWS: whole('a whole number of rows from 1 to 10000000', 1, 10_000_000).default(200_000),
      FRESHNESS_POLL_SECONDS: whole('a whole number of seconds from 1 to 3600', 1, 3_600).default(60),
      EXPORT_MAX_PER_USER: whole('a whole number of downloads from 1 to 100', 1, 100).default(2),
      EXPORT_MAX_TOTAL: whole('a whole number of downloads from 1 to 10000', 1, 10_000).default(16),
      /** 0: no floor. */
      EXPORT_MIN_BYTES_PER_S: whole(
        'a whole number of bytes per second from 0 to 1000000000',
        0,
        1_000_000_000,
      ).default(2_000),
      WALKS_PER_USER: whole('a whole number of walks from 1 to 100', 1, 100).default(4),
      /**
       * A session's list positions kept behind handles at once (a handle per page of a long group list): an open
       * list needs only its latest, a few tabs a few.
       */
      CURSOR_HANDLES_PER_USER: whole('a whole number of handles from 1 to 10000', 1, 10_000).default(24),
      CURSOR_HANDLES_MAX_BYTES: whole(
        'a whole number of bytes from 65536 to 1000000000',
        65_536,
        1_000_000_000,
      ).default(64 * 1024 * 1024),
      /** Unset: no bound of the deployment's own; the upstream's 429s still slow it. */
      UPSTREAM_MAX_RPS: whole(
        'a whole number of requests per second from 1 to 100000',
        1,
        100_000,
      ).optional(),
      UPSTREAM_MAX_CONCURRENCY: whole('a whole number of requests from 1 to 10000', 1, 10_000).default(32),
      UPSTREAM_PAGE_REUSE_MS: whole('a number of milliseconds from 0 to 600000', 0, 600_000).default(1_000),
      UPSTREAM_INDEXER: z.enum(['on', 'off'], { error: 'must be on or off' }).default('off'),
      /** Unset: learned from the cursors the upstream refuses. */
      UPSTREAM_CURSOR_TTL: whole(
        'a whole number of seconds from 1 to 604800 (7 days)',
        1,
        604_800,
      ).optional(),
      /** Unset: no metrics. */
      METRICS_PORT: whole('an integer 1–65535', 1, 65_535).optional(),
    })
    .superRefine((env, ctx) => {
      const need = (name: keyof typeof env, why: string) => {
        if (env[name] === undefined) ctx.addIssue({ code: 'custom', path: [name], message: why });
      };
      if (env.PAYMENTS_ENVIRONMENT === 'production') {
        need('PAYMENTS_BASE_URL', 'is required in production (the sandbox is never embedded there)');
        need('APP_SECRET', 'is required in production');
        need('AUTH_USERS_FILE', 'is required in production (there is no demo user)');
        const sandbox = rules.sandboxCredentials ?? [];
        if (
          sandbox.some((c) => c.secretId === env.PAYMENTS_SECRET_ID) ||
          sandbox.some((c) => c.secretPassword === env.PAYMENTS_SECRET_PASSWORD)
        )
          ctx.addIssue({
            code: 'custom',
            path: ['PAYMENTS_SECRET_ID'],
            message: 'the sandbox credentials cannot be used in production',
          });
      }
      if (env.AUTH_REQUIRE_TOTP)
        need(
          'AUTH_USERS_FILE',
          'is required with AUTH_REQUIRE_TOTP (the sandbox demo user has no code; add users with pnpm user:add --totp)',
        );
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
};

/** Everything the process is configured with, parsed once; undefined means "not set". */
export type Settings = z.output<ReturnType<typeof settingsSchema>>;

/**
 * Parses the environment once. Empty values count as unset (a blank line in `.env` must not mean "empty
 * password"). Throws ConfigError naming the first bad variable.
 */
export function parseSettings(env: Record<string, string | undefined>, rules: ConfigRules = {}): Settings {
  // pnpm runs the scripts in server/ and says where it was invoked in INIT_CWD; without pnpm, the working folder.
  const schema = settingsSchema(rules, env.INIT_CWD || process.cwd());
  const present = Object.fromEntries(
    Object.keys(schema.shape)
      .map((name) => [name, env[name]] as const)
      .filter(([, value]) => value !== undefined && value !== ''),
  );
  const result = schema.safeParse(present);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  throw new ConfigError(`${String(issue?.path[0] ?? 'environment')}: ${issue?.message ?? 'is invalid'}`);
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
