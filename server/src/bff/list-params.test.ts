import { listFiltersSchema, listQuerySchema } from '@payments/shared';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseExportParams, parseListParams, type RawQuery } from './list-params.ts';

/** Values around every rule's edges, and anything at all. */
const text = fc.oneof(
  fc.constantFrom(
    '',
    '0',
    '1',
    '050',
    '100',
    '101',
    '1e2',
    ' 5',
    '-1',
    'COMPLETED',
    'completed',
    'A'.repeat(33),
  ),
  fc.constantFrom('2026-02-28T00:00:00', '2026-02-30T00:00:00', '2026-01-01', 'c1.abc', 'x y', '\u0000'),
  fc.string(),
);
const names = fc.constantFrom('limit', 'cursor', 'status', 'date_from', 'page', '__proto__');
const query = fc.dictionary(
  names,
  fc.oneof({ weight: 6, arbitrary: text }, { weight: 1, arbitrary: fc.array(text) }),
);

/** What a zod schema decides for the same query, given the unknown and repeated names are refused first. */
function schemaVerdict(
  raw: RawQuery,
  known: readonly string[],
  schema: typeof listQuerySchema | typeof listFiltersSchema,
) {
  for (const [name, value] of Object.entries(raw))
    if (!known.includes(name) || Array.isArray(value)) return 'refused before the schema';
  const parsed = schema.safeParse(raw);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issue = parsed.error.issues[0];
  return { ok: false, detail: `${String(issue?.path[0])}: ${issue?.message}` };
}

describe('list parameters', () => {
  it('decide every query as the shared list schema does, with its reason', () => {
    fc.assert(
      fc.property(query, (raw) => {
        const verdict = schemaVerdict(raw, ['limit', 'cursor', 'status', 'date_from'], listQuerySchema);
        const parsed = parseListParams(raw);
        if (verdict === 'refused before the schema') expect(parsed.ok).toBe(false);
        else expect(parsed).toEqual(verdict);
      }),
      { numRuns: 3_000 },
    );
  });

  it('decide every export query as the shared filters schema does, with its reason', () => {
    fc.assert(
      fc.property(query, (raw) => {
        const verdict = schemaVerdict(raw, ['status', 'date_from'], listFiltersSchema);
        const parsed = parseExportParams(raw);
        if (verdict === 'refused before the schema') expect(parsed.ok).toBe(false);
        else expect(parsed).toEqual(verdict);
      }),
      { numRuns: 3_000 },
    );
  });

  it('refuse unknown and repeated parameters without echoing an unknown name', () => {
    expect(parseListParams({ '<script>': '1' })).toEqual({
      ok: false,
      detail: 'unknown query parameter; allowed: limit, cursor, status, date_from',
    });
    expect(parseListParams({ limit: ['5', '6'] })).toEqual({
      ok: false,
      detail: 'limit: must be given once',
    });
  });

  it('default the limit and keep only what was given', () => {
    expect(parseListParams({})).toEqual({ ok: true, value: { limit: 50 } });
    expect(parseListParams({ limit: '050', status: 'FAILED' })).toEqual({
      ok: true,
      value: { limit: 50, status: 'FAILED' },
    });
  });
});
