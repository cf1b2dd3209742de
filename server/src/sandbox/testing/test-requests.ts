/** Helpers for the sandbox's tests: requests against an in-process app, no port. */
import { COMPANY_HEADER, type Page } from '@payments/shared';
import type { Hono } from 'hono';
import { type PaymentRecord, type PaymentStore, paymentId } from '../payment-store.ts';

export function basic(secretId: string, secretPassword: string): string {
  return `Basic ${Buffer.from(`${secretId}:${secretPassword}`).toString('base64')}`;
}

export const SANDBOX_AUTH = basic('sandbox_id', 'sandbox_secret');
export const OTHER_AUTH = basic('other_id', 'other_secret');

export interface ListRequest {
  query?: Record<string, string | undefined>;
  company?: string;
  authorization?: string;
  path?: string;
}

export function listUrl(query: Record<string, string | undefined> = {}, path = '/v1/payments/'): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, value);
  const search = params.toString();
  return search === '' ? path : `${path}?${search}`;
}

export function list(app: Hono, request: ListRequest = {}): Promise<Response> {
  const headers: Record<string, string> = { Authorization: request.authorization ?? SANDBOX_AUTH };
  if (request.company !== undefined) headers[COMPANY_HEADER] = request.company;
  return Promise.resolve(app.request(listUrl(request.query, request.path), { headers }));
}

/** A successful page, or a failed test naming the status and body. */
export async function page(app: Hono, request: ListRequest = {}): Promise<Page<PaymentRecord>> {
  const response = await list(app, request);
  if (response.status !== 200)
    throw new Error(`expected 200, got ${response.status}: ${await response.text()}`);
  return (await response.json()) as Page<PaymentRecord>;
}

export interface OracleFilters {
  companyId: string;
  status?: string | undefined;
  dateFrom?: string | undefined;
}

/**
 * The ids a full walk must return, computed apart from the API: every row of the company read plainly from
 * the table, then filtered and sorted (created_at desc, id desc) in JavaScript.
 */
export function expectedIds(store: PaymentStore, filters: OracleFilters): string[] {
  const rows = store.db
    .prepare(
      `SELECT p.seq, p.status, p.created FROM payments AS p JOIN companies AS c ON c.id = p.company
       WHERE c.external_id = ?`,
    )
    .all(filters.companyId) as { seq: number; status: string; created: number }[];
  const from = filters.dateFrom === undefined ? undefined : Date.parse(`${filters.dateFrom}Z`) / 1000;
  return rows
    .filter(
      (r) =>
        (filters.status === undefined || r.status === filters.status) &&
        (from === undefined || r.created >= from),
    )
    .sort((a, b) => b.created - a.created || b.seq - a.seq)
    .map((r) => paymentId(r.seq));
}

/** Follows `next_cursor` to the end; `between` runs after each page (e.g. to insert new payments). */
export async function walk(
  app: Hono,
  request: ListRequest,
  between: () => void = () => {},
): Promise<{ ids: string[]; pages: Page<PaymentRecord>[] }> {
  const pages: Page<PaymentRecord>[] = [];
  let cursor: string | undefined;
  for (;;) {
    const current = await page(app, { ...request, query: { ...request.query, cursor } });
    pages.push(current);
    if (pages.length > 10_000) throw new Error('the walk does not end');
    between();
    if (current.next_cursor === null) break;
    cursor = current.next_cursor;
  }
  return { ids: pages.flatMap((p) => p.data.map((row) => row.id)), pages };
}
