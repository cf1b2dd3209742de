import { type ListFilters, listFiltersSchema, listQuerySchema } from '@payments/shared';
import type { z } from 'zod';

export type RawQuery = Record<string, string | string[]>;
export type Parsed<T> = { ok: true; value: T } | { ok: false; detail: string };

export interface ListParams {
  limit: number;
  cursor?: string | undefined;
  status?: string | undefined;
  date_from?: string | undefined;
}

export type ExportParams = ListFilters;

function parseWith<T>(raw: RawQuery, known: readonly string[], schema: z.ZodType<T>): Parsed<T> {
  for (const [name, value] of Object.entries(raw)) {
    // Names are echoed in the detail only when they are one of ours: an unknown name is the browser's text.
    if (!known.includes(name))
      return { ok: false, detail: `unknown query parameter; allowed: ${known.join(', ')}` };
    if (Array.isArray(value)) return { ok: false, detail: `${name}: must be given once` };
  }
  const parsed = schema.safeParse(raw);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issue = parsed.error.issues[0];
  return { ok: false, detail: `${String(issue?.path[0] ?? 'query')}: ${issue?.message ?? 'is invalid'}` };
}

/** `GET /api/payments`: the shared list rules, nothing unknown, nothing repeated. */
export function parseListParams(raw: RawQuery): Parsed<ListParams> {
  return parseWith(raw, ['limit', 'cursor', 'status', 'date_from'], listQuerySchema);
}

/** `GET /api/payments/export.csv`: the filters only (the export walks every page itself). */
export function parseExportParams(raw: RawQuery): Parsed<ExportParams> {
  return parseWith(raw, ['status', 'date_from'], listFiltersSchema);
}
