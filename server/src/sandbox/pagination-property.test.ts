import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { createSandbox } from './create-sandbox.ts';
import { SEED_ANCHOR_SECONDS, toDateTime } from './payment-store.ts';
import { expectedIds, OTHER_AUTH, page, SANDBOX_AUTH } from './testing/test-requests.ts';

// Two clocks: one ahead of the seeded data, one behind it (live rows then share the newest second).
const ahead = createSandbox({ seedCount: 3_000, seed: 11 });
const behind = createSandbox({ seedCount: 3_000, seed: 12, now: () => new Date('2020-01-01T00:00:00Z') });
afterAll(() => {
  ahead.close();
  behind.close();
});

const companies = [...(ahead.tenants[0]?.companies ?? []), ...(ahead.tenants[1]?.companies ?? [])].map(
  (c) => c.id,
);
const authFor = (company: string) => (company.startsWith('acme') ? SANDBOX_AUTH : OTHER_AUTH);
const seededSpan = 730 * 86_400;

const walkCase = fc.record({
  clockBehind: fc.boolean(),
  company: fc.constantFrom(...companies),
  sendCompanyHeader: fc.boolean(),
  status: fc.option(fc.constantFrom('COMPLETED', 'AWAITING', 'FAILED', 'CANCELLED', 'PENDING'), {
    nil: undefined,
  }),
  // From a little before the seeded span to a little after it, or (as often) exactly the second of a stored
  // payment, the one case where an exclusive comparison would differ from the inclusive one.
  dateFrom: fc.option(
    fc.oneof(
      fc
        .integer({ min: -30 * 86_400, max: seededSpan + 86_400 })
        .map((s) => toDateTime(SEED_ANCHOR_SECONDS - seededSpan + s)),
      fc.nat().map((n) => ({ nthPayment: n })),
    ),
    { nil: undefined },
  ),
  limits: fc.array(fc.integer({ min: 1, max: 100 }), { minLength: 1, maxLength: 5 }),
  inserts: fc.array(fc.integer({ min: 0, max: 40 }), { minLength: 1, maxLength: 5 }),
});

/** The `created_at` of a company's n-th stored payment (n taken modulo their number), to use as a date_from. */
function createdOfNth(sandbox: typeof ahead, company: string, n: number): string | undefined {
  const rows = sandbox.store.db
    .prepare(
      `SELECT p.created FROM payments AS p JOIN companies AS c ON c.id = p.company WHERE c.external_id = ?
       ORDER BY p.seq`,
    )
    .all(company) as { created: number }[];
  const row = rows[n % Math.max(rows.length, 1)];
  return row === undefined ? undefined : toDateTime(row.created);
}

describe('keyset pagination (property)', () => {
  it('following next_cursor yields exactly the matching rows that existed at the start, in order, once each, while payments are inserted between pages', async () => {
    await fc.assert(
      fc.asyncProperty(walkCase, async (c) => {
        const sandbox = c.clockBehind ? behind : ahead;
        const isRoot = c.company === 'acme' || c.company === 'globex';
        const company = c.sendCompanyHeader || !isRoot ? c.company : undefined;
        const dateFrom =
          typeof c.dateFrom === 'object'
            ? createdOfNth(sandbox, c.company, c.dateFrom.nthPayment)
            : c.dateFrom;
        const expected = expectedIds(sandbox.store, { companyId: c.company, status: c.status, dateFrom });

        const seen: string[] = [];
        let cursor: string | undefined;
        for (let n = 0; ; n++) {
          const current = await page(sandbox.app, {
            authorization: authFor(c.company),
            company,
            query: {
              status: c.status,
              date_from: dateFrom,
              limit: String(c.limits[n % c.limits.length]),
              cursor,
            },
          });
          seen.push(...current.data.map((row) => row.id));
          expect(current.has_more).toBe(current.next_cursor !== null);
          // "More" exactly when rows of the walk remain: never a promise kept by an empty page.
          expect(current.has_more).toBe(seen.length < expected.length);
          sandbox.insertPayments(c.inserts[n % c.inserts.length] ?? 0);
          if (current.next_cursor === null) break;
          cursor = current.next_cursor;
          expect(n).toBeLessThan(5_000);
        }
        expect(seen).toEqual(expected);
      }),
      { numRuns: 60 },
    );
  });
});
