import {
  COMPANY_HEADER,
  COMPANY_ID_PATTERN,
  dateTimeSchema,
  LIMIT_DEFAULT,
  limitParamSchema,
  type Page,
  subtreeIds,
} from '@payments/shared';
import type { Context } from 'hono';
import { z } from 'zod';
import type { CursorCodec } from './cursor-codec.ts';
import { fromDateTime, type PaymentRecord, type PaymentStore, paymentSeq } from './payment-store.ts';
import { problemResponse, quoted } from './sandbox-problem.ts';
import type { SandboxTenant } from './tenants.ts';

export type SandboxEnv = { Variables: { tenant: SandboxTenant } };

/** The sandbox's own statuses are upper-case words (DESIGN.md); the BFF accepts more, as a real API may send them. */
const sandboxStatusSchema = z
  .string()
  .regex(/^[A-Z_]{1,32}$/, 'must be 1–32 upper-case letters or underscores');

/** A URL's query as a plain record, and the names given more than once. */
function queryRecord(params: URLSearchParams): { record: Record<string, string>; repeated: string[] } {
  // No prototype: a parameter named `__proto__` must stay an ordinary key.
  const record: Record<string, string> = Object.create(null);
  const repeated: string[] = [];
  for (const [key, value] of params) {
    if (Object.hasOwn(record, key)) repeated.push(key);
    record[key] = value;
  }
  return { record, repeated };
}

const PARAMETERS = new Set(['limit', 'cursor', 'status', 'date_from', 'page_number', 'page_size']);
/** Deep offset pages cost their offset; this bound keeps one request from costing a full scan many times over. */
const PAGE_NUMBER_MAX = 100_000;
const PAGE_NUMBER_RANGE = `must be an integer from 1 to ${PAGE_NUMBER_MAX}`;
const pageNumberSchema = z
  .string()
  .regex(/^\d{1,6}$/, PAGE_NUMBER_RANGE)
  .transform(Number)
  .pipe(z.number().int().min(1, PAGE_NUMBER_RANGE).max(PAGE_NUMBER_MAX, PAGE_NUMBER_RANGE));
/** `page_size` was replaced by `limit` (spec part 9) and obeys the same bounds. */
const pageSizeSchema = limitParamSchema;

/** When `page_number`/`page_size` were deprecated, sent as an RFC 9745 `Deprecation` date. */
const DEPRECATED_AT = new Date('2026-01-01T00:00:00Z');

export interface ListPaymentsDeps {
  store: PaymentStore;
  cursors: CursorCodec;
  sunset: Date;
  now: () => Date;
  /** Cursors older than this are refused (SANDBOX_FAULTS cursor_ttl_s). */
  cursorTtlMs?: number | undefined;
}

type Invalid = { ok: false; response: Response };
type Checked<T> = { ok: true; value: T } | Invalid;

function invalidParameter(name: string, message: string): Invalid {
  return {
    ok: false,
    response: problemResponse('invalid_parameter', 400, `${quoted(name)} ${message}.`, {
      extra: { parameter: name.slice(0, 64) },
    }),
  };
}

/** Checks one optional query parameter with a shared schema; the error names the parameter. */
function parameter<T>(
  record: Record<string, string>,
  name: string,
  schema: {
    safeParse(
      value: unknown,
    ): { success: true; data: T } | { success: false; error: { issues: { message: string }[] } };
  },
): Checked<T | undefined> {
  const raw = record[name];
  if (raw === undefined) return { ok: true, value: undefined };
  const result = schema.safeParse(raw);
  if (result.success) return { ok: true, value: result.data };
  return invalidParameter(name, result.error.issues[0]?.message ?? 'is not valid');
}

/** The company a request acts for: the caller's own, or a descendant named by `X-Company-Id` (spec part 5). */
function actingCompany(tenant: SandboxTenant, header: string | undefined): Checked<string> {
  if (header === undefined) return { ok: true, value: tenant.rootCompanyId };
  if (COMPANY_ID_PATTERN.test(header) && subtreeIds(tenant.companies, tenant.rootCompanyId).has(header)) {
    return { ok: true, value: header };
  }
  const detail = COMPANY_ID_PATTERN.test(header)
    ? `${COMPANY_HEADER} ${quoted(header)} is not your company or one of its descendants.`
    : `${COMPANY_HEADER} is not a company id.`;
  return { ok: false, response: problemResponse('forbidden_company', 403, detail) };
}

/** `GET /v1/payments/`: keyset pages by `cursor`, or deprecated offset pages by `page_number`/`page_size`. */
export function listPayments(deps: ListPaymentsDeps) {
  const { store, cursors } = deps;

  const envelope = (rows: PaymentRecord[], limit: number, filters: Filters): Page<PaymentRecord> => {
    const data = rows.slice(0, limit);
    const last = data[data.length - 1];
    const hasMore = rows.length > limit && last !== undefined;
    const next = hasMore
      ? cursors.encode({
          createdAt: last.created_at,
          id: last.id,
          companyId: filters.companyId,
          status: filters.status ?? null,
          dateFrom: filters.dateFrom ?? null,
          ...(deps.cursorTtlMs === undefined ? {} : { issuedAt: deps.now().getTime() }),
        })
      : null;
    return { data, next_cursor: next, has_more: hasMore };
  };

  return (c: Context<SandboxEnv>): Response => {
    const company = actingCompany(c.get('tenant'), c.req.header(COMPANY_HEADER));
    if (!company.ok) return company.response;

    const params = new URL(c.req.url).searchParams;
    const { record, repeated } = queryRecord(params);
    const [twice] = repeated;
    if (twice !== undefined) return invalidParameter(twice, 'is given more than once').response;
    // Names come from the URL itself: a plain record silently drops a parameter called `__proto__`.
    const unknown = [...params.keys()].find((name) => !PARAMETERS.has(name));
    if (unknown !== undefined) {
      return invalidParameter(unknown, 'is not a parameter of this endpoint').response;
    }

    const status = parameter(record, 'status', sandboxStatusSchema);
    if (!status.ok) return status.response;
    const dateFrom = parameter(record, 'date_from', dateTimeSchema);
    if (!dateFrom.ok) return dateFrom.response;
    const filters: Filters = { companyId: company.value, status: status.value, dateFrom: dateFrom.value };
    const query = {
      companyId: filters.companyId,
      status: filters.status,
      dateFrom: filters.dateFrom === undefined ? undefined : fromDateTime(filters.dateFrom),
    };

    if (record.page_number !== undefined || record.page_size !== undefined) {
      const headers = {
        Deprecation: `@${Math.floor(DEPRECATED_AT.getTime() / 1000)}`,
        Sunset: deps.sunset.toUTCString(),
      };
      if (deps.now().getTime() >= deps.sunset.getTime()) {
        return problemResponse(
          'gone',
          410,
          `page_number and page_size were disabled on ${deps.sunset.toISOString()}; follow next_cursor instead.`,
          { headers },
        );
      }
      const mixed = ['cursor', 'limit'].find((name) => record[name] !== undefined);
      if (mixed !== undefined) {
        return invalidParameter(mixed, 'cannot be combined with page_number or page_size').response;
      }
      const pageNumber = parameter(record, 'page_number', pageNumberSchema);
      if (!pageNumber.ok) return pageNumber.response;
      const pageSize = parameter(record, 'page_size', pageSizeSchema);
      if (!pageSize.ok) return pageSize.response;
      const size = pageSize.value ?? LIMIT_DEFAULT;
      const rows = store.page({ ...query, offset: ((pageNumber.value ?? 1) - 1) * size, limit: size + 1 });
      return c.json(envelope(rows, size, filters), 200, headers);
    }

    const limit = parameter(record, 'limit', limitParamSchema);
    if (!limit.ok) return limit.response;
    const size = limit.value ?? LIMIT_DEFAULT;
    let before: { created: number; seq: number } | undefined;
    if (record.cursor !== undefined) {
      const decoded = cursors.decode(record.cursor);
      const seq = decoded.ok ? paymentSeq(decoded.payload.id) : undefined;
      if (!decoded.ok || seq === undefined) {
        return problemResponse('invalid_cursor', 400, 'cursor is not a value this service issued.', {
          extra: { parameter: 'cursor' },
        });
      }
      const { payload } = decoded;
      if (
        payload.companyId !== filters.companyId ||
        payload.status !== (filters.status ?? null) ||
        payload.dateFrom !== (filters.dateFrom ?? null)
      ) {
        return problemResponse(
          'cursor_mismatch',
          400,
          'cursor belongs to another company or other filters; start a new session without cursor.',
          { extra: { parameter: 'cursor' } },
        );
      }
      if (
        deps.cursorTtlMs !== undefined &&
        (payload.issuedAt === undefined || deps.now().getTime() - payload.issuedAt >= deps.cursorTtlMs)
      )
        return problemResponse('cursor_expired', 410, 'cursor has expired; start again without cursor.', {
          extra: { parameter: 'cursor' },
        });
      before = { created: fromDateTime(payload.createdAt), seq };
    }
    const rows = store.page({ ...query, before, limit: size + 1 });
    return c.json(envelope(rows, size, filters));
  };
}

interface Filters {
  companyId: string;
  status?: string | undefined;
  dateFrom?: string | undefined;
}
