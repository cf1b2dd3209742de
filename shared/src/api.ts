import { z } from 'zod/mini';
import { companySchema } from './company.ts';
import { AMOUNT_UNITS } from './money.ts';
import { ENVIRONMENTS, TOTP_CODE_PATTERN } from './rules.ts';

const integer = z.number().check(z.refine(Number.isInteger));

/** `GET /api/config`: what the SPA needs to draw itself for the signed-in user. */
export const appConfigSchema = z.object({
  environment: z.enum(ENVIRONMENTS),
  time_zone: z.string(),
  /** What an integer `amount` means (decimal strings and fractional numbers are always major units). */
  amount_unit: z.enum(AMOUNT_UNITS),
  own_company_id: z.string(),
  companies: z.array(companySchema),
  statuses: z.array(z.string()),
  limits: z.object({ min: integer, max: integer, default: integer }),
  page_sizes: z.array(integer),
  /** How often the list checks, while its tab is visible, whether newer payments arrived. */
  freshness_poll_seconds: integer,
  /** The statuses whose totals the summary gives apart as settled ("Completed"). */
  settled_statuses: z.optional(z.array(z.string())),
  /** Seconds without a request after which a session ends: the app warns before. */
  session_idle_seconds: z.optional(integer),
});
export type AppConfig = z.infer<typeof appConfigSchema>;

/** `POST /api/session` body; `totp` once the BFF answered `totp_required`. */
export const signInSchema = z.strictObject({
  username: z.string().check(z.minLength(1), z.maxLength(128)),
  password: z.string().check(z.minLength(1), z.maxLength(1024)),
  totp: z.optional(z.string().check(z.regex(TOTP_CODE_PATTERN))),
});
export type SignIn = z.infer<typeof signInSchema>;

/** `DELETE /api/session?everywhere=true` ends every session of the user, on every device. */
export const signOutSchema = z.strictObject({
  everywhere: z.optional(z.enum(['true', 'false'])),
});

/** `GET /api/session`, and the answer to a successful sign-in. */
export const sessionSchema = z.object({
  username: z.string(),
  expires_at: z.string(),
});
export type Session = z.infer<typeof sessionSchema>;

const count = z.number().check(z.refine((n) => Number.isInteger(n) && n >= 0));
const money = z.object({ currency: z.string(), count, total: z.string() });
const statusFigures = z.object({ status: z.nullable(z.string()), count, totals: z.array(money) });

/**
 * `GET /api/payments/summary`: the list's filters answered as figures. Totals are exact decimal strings in major
 * units per currency; amounts that cannot be read as money are counted in `uninterpreted`, never guessed. Days
 * are in the configured zone. `complete: false` when the row cap stopped the count.
 */
export const summarySchema = z.object({
  count,
  complete: z.boolean(),
  by_status: z.array(z.object({ status: z.nullable(z.string()), count })),
  totals: z.array(money),
  /** The totals of the statuses counted as settled (PAYMENTS_SETTLED_STATUSES), per currency. */
  settled: z.optional(z.array(money)),
  uninterpreted: count,
  days: z.array(z.object({ day: z.string(), count, totals: z.array(money) })),
  undated: count,
  /** When the count began (ISO 8601): the figures hold the payments listed then. */
  as_of: z.optional(z.string()),
  /** Count and totals per currency of each status, in the order of `by_status`. */
  by_status_totals: z.optional(z.array(statusFigures)),
  /** A group's figures per company, counted in the same walk; absent for one company. */
  companies: z.optional(
    z.array(
      z.object({
        company_id: z.string(),
        count,
        totals: z.array(money),
        by_status_totals: z.array(statusFigures),
        uninterpreted: count,
      }),
    ),
  ),
});
export type Summary = z.infer<typeof summarySchema>;
