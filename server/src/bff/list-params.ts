import { LIMIT_DEFAULT, LIST_PARAM_RULES, type ListFilters } from '@payments/shared';

export type RawQuery = Record<string, string | string[]>;
export type Parsed<T> = { ok: true; value: T } | { ok: false; detail: string };

export interface ListParams {
  limit: number;
  cursor?: string | undefined;
  status?: string | undefined;
  date_from?: string | undefined;
}

export type ExportParams = ListFilters;

type ParamName = keyof typeof LIST_PARAM_RULES;

/**
 * The query's parameters checked by the shared rules (what `listQuerySchema` and `listFiltersSchema` decide, a
 * test keeps them agreeing), without building a schema's copy on every request: nothing unknown, nothing repeated,
 * every value valid, reported in the schema's order.
 */
function parseWith(raw: RawQuery, known: readonly ParamName[]): Parsed<Partial<Record<ParamName, string>>> {
  for (const name in raw) {
    if (!Object.hasOwn(raw, name)) continue;
    // Names are echoed in the detail only when they are one of ours: an unknown name is the browser's text.
    if (!(known as readonly string[]).includes(name))
      return { ok: false, detail: `unknown query parameter; allowed: ${known.join(', ')}` };
    if (Array.isArray(raw[name])) return { ok: false, detail: `${name}: must be given once` };
  }
  const values = raw as Partial<Record<ParamName, string>>;
  for (const name of known) {
    const value = values[name];
    const rule = LIST_PARAM_RULES[name];
    if (value !== undefined && !rule.test(value)) return { ok: false, detail: `${name}: ${rule.message}` };
  }
  return { ok: true, value: values };
}

/** `GET /api/payments`: the shared list rules, nothing unknown, nothing repeated. */
export function parseListParams(raw: RawQuery): Parsed<ListParams> {
  const parsed = parseWith(raw, ['limit', 'cursor', 'status', 'date_from']);
  if (!parsed.ok) return parsed;
  const { limit, cursor, status, date_from } = parsed.value;
  const value: ListParams = { limit: limit === undefined ? LIMIT_DEFAULT : Number(limit) };
  if (cursor !== undefined) value.cursor = cursor;
  if (status !== undefined) value.status = status;
  if (date_from !== undefined) value.date_from = date_from;
  return { ok: true, value };
}

/** `GET /api/payments/export.csv`: the filters only (the export walks every page itself). */
export function parseExportParams(raw: RawQuery): Parsed<ExportParams> {
  const parsed = parseWith(raw, ['status', 'date_from']);
  if (!parsed.ok) return parsed;
  const { status, date_from } = parsed.value;
  const value: ExportParams = {};
  if (status !== undefined) value.status = status;
  if (date_from !== undefined) value.date_from = date_from;
  return { ok: true, value };
}
