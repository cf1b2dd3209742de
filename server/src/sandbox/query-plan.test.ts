import { afterAll, describe, expect, it } from 'vitest';
import { createPaymentStore, pageSql, type QueryShape } from './payment-store.ts';

const store = createPaymentStore({ companyIds: ['a', 'b'], weights: [3, 1], seedCount: 2_000, seed: 5 });
afterAll(() => store.close());

const shapes: QueryShape[] = [];
for (const status of [false, true]) {
  for (const dateFrom of [false, true]) {
    for (const before of [false, true]) shapes.push({ status, dateFrom, before, offset: false });
    shapes.push({ status, dateFrom, before: false, offset: true });
  }
}

const label = (s: QueryShape) =>
  Object.entries(s)
    .filter(([, on]) => on)
    .map(([name]) => name)
    .join('+') || 'no filter';

describe('EXPLAIN QUERY PLAN of every page query', () => {
  it.each(shapes.map((shape) => [label(shape), shape] as const))(
    '%s: searches a (company…, created) index, no table scan, no sort step',
    (_, shape) => {
      const plan = (
        store.db.prepare(`EXPLAIN QUERY PLAN ${pageSql(shape)}`).all() as { detail: string }[]
      ).map((row) => row.detail);
      const index = shape.status ? 'payments_by_company_status_created' : 'payments_by_company_created';
      const payments = plan.find((detail) => detail.startsWith('SEARCH p '));
      expect(payments, plan.join(' | ')).toMatch(
        new RegExp(`USING (COVERING )?INDEX ${index} \\(company=\\?`),
      );
      if (shape.status) expect(payments).toContain('status=?');
      if (shape.dateFrom) expect(payments).toContain('created>?');
      if (shape.before) expect(payments).toContain('created<?');
      expect(
        plan.filter((detail) => detail.startsWith('SCAN')),
        plan.join(' | '),
      ).toEqual([]);
      expect(
        plan.filter((detail) => detail.includes('TEMP B-TREE')),
        plan.join(' | '),
      ).toEqual([]);
    },
  );

  it('the plan test would notice a scan: a query without an index on its filter scans', () => {
    const plan = (
      store.db
        .prepare('EXPLAIN QUERY PLAN SELECT * FROM payments WHERE amount > 5 ORDER BY created DESC')
        .all() as {
        detail: string;
      }[]
    ).map((row) => row.detail);
    expect(plan.some((detail) => detail.startsWith('SCAN'))).toBe(true);
    expect(plan.some((detail) => detail.includes('TEMP B-TREE'))).toBe(true);
  });
});
