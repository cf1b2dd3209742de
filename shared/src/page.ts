import { z } from 'zod';
import { HAS_MORE_RULE, hasMoreAgrees } from './rules.ts';

/**
 * The page envelope of every list endpoint (spec part 2), with both rules enforced:
 * `has_more=false` ⇔ `next_cursor=null`.
 */
export function pageSchema<Item extends z.ZodType>(item: Item) {
  return z
    .object({
      data: z.array(item),
      next_cursor: z.string().min(1).nullable(),
      has_more: z.boolean(),
    })
    .refine((page) => hasMoreAgrees(page.has_more, page.next_cursor), {
      message: HAS_MORE_RULE,
      path: ['next_cursor'],
    });
}

export type Page<Item> = { data: Item[]; next_cursor: string | null; has_more: boolean };

/**
 * A payment record as the dashboard accepts it. The spec does not show the record's fields, so only `id` is
 * required (rows are de-duplicated by it); known fields are typed when present and unknown fields pass through.
 */
export const paymentSchema = z.looseObject({
  id: z.union([z.string().min(1), z.number()]),
  company_id: z.string().optional(),
  status: z.string().optional(),
  amount: z.number().optional(),
  currency: z.string().optional(),
  created_at: z.string().optional(),
  description: z.string().nullable().optional(),
  counterparty: z.string().nullable().optional(),
  reference: z.string().nullable().optional(),
});
export type Payment = z.infer<typeof paymentSchema>;

export const paymentPageSchema = pageSchema(paymentSchema);
export type PaymentPage = Page<Payment>;
