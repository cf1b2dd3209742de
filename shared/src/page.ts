import { z } from 'zod/mini';

export const HAS_MORE_RULE =
  'has_more and next_cursor disagree: has_more=false requires next_cursor=null and has_more=true a string';

/**
 * The page envelope of every list endpoint (spec part 2), strict about its own members and both rules
 * (`has_more=false` ⇔ `next_cursor=null`); other envelope members are allowed and dropped.
 */
function pageSchema<Item extends z.ZodMiniType>(item: Item) {
  return z
    .object({
      data: z.array(item),
      next_cursor: z.nullable(z.string().check(z.minLength(1))),
      has_more: z.boolean(),
    })
    .check(
      z.refine((page) => page.has_more === (page.next_cursor !== null), {
        message: HAS_MORE_RULE,
        path: ['next_cursor'],
      }),
    );
}

export type Page<Item> = { data: Item[]; next_cursor: string | null; has_more: boolean };

/**
 * A payment record as the dashboard accepts it: any JSON object with a usable `id` (rows are keyed by it). The
 * spec shows no other field, so every other member passes as it came, of whatever type; the known ones are
 * interpreted where they are shown (see money.ts, date-time.ts).
 */
export const paymentSchema = z.looseObject({
  id: z.union([
    z.string().check(z.minLength(1)),
    z.number().check(z.refine(Number.isFinite)),
    // An integer id beyond 2^53, kept by the BFF as the digits the upstream sent.
    z.custom<RawJson>((value) => JSON.isRawJSON(value)),
  ]),
});

/** JSON.rawJSON and JSON.isRawJSON (ES2025, in Node 22+ and Chromium 114+), not yet in TypeScript's es2024 lib. */
declare global {
  interface JSON {
    rawJSON(text: string): RawJson;
    isRawJSON(value: unknown): value is RawJson;
  }
}
type RawJson = { readonly rawJSON: string };
export type Payment = z.infer<typeof paymentSchema>;

export const paymentPageSchema = pageSchema(paymentSchema);
export type PaymentPage = Page<Payment>;

/**
 * Where `input` breaks a schema, by path and structure only (`data[17].id is missing`), never by the values
 * themselves: upstream pages hold payment data that must not reach a log.
 */
export function describeIssue(issue: z.core.$ZodIssue | undefined, input: unknown): string {
  if (issue === undefined) return 'is invalid';
  let path = '';
  let value = input;
  for (const key of issue.path) {
    path += typeof key === 'number' ? `[${key}]` : path === '' ? String(key) : `.${String(key)}`;
    value =
      typeof value === 'object' && value !== null ? (value as Record<PropertyKey, unknown>)[key] : undefined;
  }
  const where = path === '' ? 'the page' : path;
  if (issue.code === 'custom' && issue.message === HAS_MORE_RULE) return HAS_MORE_RULE;
  if (value === undefined) return `${where} is missing`;
  if (issue.code === 'invalid_type') return `${where} is not ${article(issue.expected)}`;
  if (issue.code === 'invalid_union') return `${where} is neither a non-empty string nor a number`;
  return `${where} is malformed`;
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}
