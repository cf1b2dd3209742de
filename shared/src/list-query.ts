import { z } from 'zod/mini';
import { compareDecimals, currencyExponent } from './money.ts';
import {
  CURSOR_PATTERN,
  isDateTime,
  isTimeZone,
  LIMIT_DEFAULT,
  LIMIT_MAX,
  LIMIT_MIN,
  SORTS,
  STATUS_PATTERN,
} from './rules.ts';

/** One status, or several separated by commas (`AWAITING,FAILED`): a row in any of them is kept. */
const statusSchema = z
  .string()
  .check(
    z.refine(
      (text) =>
        text.split(',').length <= 20 && text.split(',').every((status) => STATUS_PATTERN.test(status)),
      'is one or more statuses separated by commas, each 1–64 letters, digits or _ . : -',
    ),
  );
/** An amount bound in major units, as a person types it: `100`, `99.95`, `-5`. */
const AMOUNT_BOUND = /^-?\d{1,15}(\.\d{1,6})?$/;
const amountBoundSchema = z
  .string()
  .check(z.regex(AMOUNT_BOUND, 'is an amount in major units such as 100 or 99.95'));

export const dateTimeSchema = z
  .string()
  .check(z.refine(isDateTime, 'must be a real date-time written as YYYY-MM-DDTHH:MM:SS'));
const cursorSchema = z.string().check(z.regex(CURSOR_PATTERN, 'is not a cursor this service issued'));

/** A `limit` as it arrives in a query string: a plain decimal integer within the bounds (no sign, exponent, space). */
export const limitParamSchema = z.pipe(
  z
    .string()
    .check(
      z.refine(
        (text) => /^\d{1,3}$/.test(text) && Number(text) >= LIMIT_MIN && Number(text) <= LIMIT_MAX,
        `must be an integer from ${LIMIT_MIN} to ${LIMIT_MAX}`,
      ),
    ),
  z.transform(Number),
);

const filterShape = {
  status: z.optional(statusSchema),
  date_from: z.optional(dateTimeSchema),
  /** Inclusive upper bound, in the same format and zone as date_from; the BFF applies it (the API has none). */
  date_to: z.optional(dateTimeSchema),
  /** `true`: the company named by X-Company-Id and every descendant the user may see, merged into one list. */
  group: z.optional(z.enum(['true', 'false'])),
  /** The currencies kept (`EUR` or `EUR,USD`); the BFF applies it (the API has none). */
  currency: z.optional(
    z.string().check(
      z.regex(/^[A-Z]{3}(,[A-Z]{3}){0,19}$/, 'is one or more currency codes such as EUR,USD'),
      // A code no one uses would select nothing: named, so a mistyped link never reads as "no payments".
      z.superRefine((value, ctx) => {
        const unknown = value
          .split(',')
          .find((code) => /^[A-Z]{3}$/.test(code) && currencyExponent(code) === null);
        if (unknown !== undefined)
          ctx.issues.push({ code: 'custom', message: `${unknown} is not a currency code`, input: value });
      }),
    ),
  ),
  /** Inclusive amount bounds in major units, of the row's own currency; the BFF applies them (the API has none). */
  amount_min: z.optional(amountBoundSchema),
  amount_max: z.optional(amountBoundSchema),
};

/** A range whose end comes before its start selects nothing: refused, so a typo never reads as "no payments". */
const orderedRange = z.refine<{ date_from?: string | undefined; date_to?: string | undefined }>(
  (f) => f.date_from === undefined || f.date_to === undefined || f.date_from <= f.date_to,
  { message: 'must not be before date_from', path: ['date_to'] },
);

/**
 * An amount range whose maximum is below its minimum selects nothing: refused, as a reversed period is. Zod runs
 * this check even when a bound failed its own pattern, so a badly written bound is left to that bound's issue.
 */
const orderedAmounts = z.refine<{ amount_min?: string | undefined; amount_max?: string | undefined }>(
  (f) =>
    f.amount_min === undefined ||
    f.amount_max === undefined ||
    !AMOUNT_BOUND.test(f.amount_min) ||
    !AMOUNT_BOUND.test(f.amount_max) ||
    compareDecimals(f.amount_min, f.amount_max) <= 0,
  { message: 'must not be below amount_min', path: ['amount_max'] },
);

/** What a search looks for (see searchQuerySchema). */
const searchTextSchema = z
  .string()
  .check(z.minLength(1, 'is empty'), z.maxLength(200, 'is longer than 200 characters'));

/**
 * `GET /api/payments/summary`: the filters, `q` to count only a search's matches (the figures of exactly the rows
 * a search lists), and `fresh=true` to count again rather than answer from the cache.
 */
export const summaryQuerySchema = z
  .strictObject({
    ...filterShape,
    q: z.optional(searchTextSchema),
    fresh: z.optional(z.enum(['true', 'false'])),
  })
  .check(orderedRange, orderedAmounts);

const sortSchema = z.optional(z.enum(SORTS, { error: `must be one of ${SORTS.join(', ')}` }));

/**
 * `GET /api/payments/search`: the view's filters and what to look for (`q`): an id, a reference or counterparty
 * (any part of it, case and accents aside), an amount (`120.50`) or a range of amounts (`100..200`).
 */
export const searchQuerySchema = z
  .strictObject({
    ...filterShape,
    q: searchTextSchema,
    /** Absent: matches in the list's order; else every match, sorted so. */
    sort: sortSchema,
  })
  .check(orderedRange, orderedAmounts);

/** `GET /api/payments/find`: one payment by its id, in every company the user may see. */
export const findQuerySchema = z.strictObject({
  id: z.string().check(z.minLength(1, 'is empty'), z.maxLength(200, 'is longer than 200 characters')),
});

/**
 * `GET /api/payments/export.csv` and `export.xlsx`: the filters, and the columns the user sees (comma-separated
 * column ids, in the table's order; absent: every column, the technical ones too: `created_at_utc`,
 * `amount_raw`, …): the file holds exactly those, headed by the table's labels. `sort`: the rows in that order.
 * `tz`: the zone `created_at` is written in (the user's display zone; default the
 * company's), which the file's header names.
 */
export const exportQuerySchema = z
  .strictObject({
    ...filterShape,
    sort: sortSchema,
    tz: z.optional(z.string().check(z.refine(isTimeZone, 'must be an IANA time zone such as Europe/Berlin'))),
    columns: z.optional(
      z
        .string()
        .check(z.regex(/^[^,]{1,128}(,[^,]{1,128}){0,99}$/, 'is a comma-separated list of column ids')),
    ),
  })
  .check(orderedRange, orderedAmounts);

/** `GET /api/payments` as it arrives in a URL: strings in, typed values out, nothing unknown. */
export const listQuerySchema = z
  .strictObject({
    limit: z._default(limitParamSchema, LIMIT_DEFAULT),
    cursor: z.optional(cursorSchema),
    ...filterShape,
    sort: sortSchema,
    /** `true` on a Refresh's first page: a sorted view walked again from now, never one sorted before. */
    fresh: z.optional(z.enum(['true', 'false'])),
  })
  .check(orderedRange, orderedAmounts);
