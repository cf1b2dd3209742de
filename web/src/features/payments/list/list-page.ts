import { type PaymentPage, paymentPageSchema } from '@payments/shared';
import type { AnswerSchema } from '../../../lib/api-client.ts';

/**
 * A page of the list; a group's also says which company each row is from (`company_ids`, parallel to `data`). A
 * sorted view's page says `as_of`: every row of the view was read at or after that time.
 */
export interface ListPage extends PaymentPage {
  company_ids?: string[];
  as_of?: string;
}

/**
 * The shared page schema, and a group's `company_ids` and a sorted view's `as_of` beside it: the shared schema
 * drops members it does not name, so the list of companies is checked here, as a list of ids as long as the page.
 */
export const listPageSchema: AnswerSchema<ListPage> = {
  safeParse(body) {
    const parsed = paymentPageSchema.safeParse(body);
    if (!parsed.success) return parsed;
    const asOf = (body as { as_of?: unknown }).as_of;
    const page = {
      success: true as const,
      data: typeof asOf === 'string' ? { ...parsed.data, as_of: asOf } : (parsed.data as ListPage),
    };
    const ids = (body as { company_ids?: unknown }).company_ids;
    if (ids === undefined) return page;
    if (
      Array.isArray(ids) &&
      ids.length === page.data.data.length &&
      ids.every((id) => typeof id === 'string')
    )
      return { success: true, data: { ...page.data, company_ids: ids as string[] } };
    const issue = {
      code: 'custom' as const,
      path: ['company_ids'],
      message: 'not parallel to data',
      input: ids,
    };
    return { success: false, error: { issues: [issue] } };
  },
};

/** How far the BFF has walked a sorted view: rows read, of the view's count when a summary knows it. */
export interface SortProgress {
  sorted: number;
  estimate: number | null;
}
