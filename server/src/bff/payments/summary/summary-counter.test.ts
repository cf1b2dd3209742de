import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSummaryCounter } from './summary-counter.ts';

/** An amount in minor units as a decimal in major units, by BigInt: the reference the counter is held to. */
function reference(minor: bigint, digits: number): bigint {
  return minor * 10n ** BigInt(3 - digits);
}

describe('summary counter', () => {
  it('sums each currency exactly, whatever the mix of integer and decimal-string amounts', () => {
    const record = fc.record({
      currency: fc.constantFrom('EUR', 'JPY', 'BHD'),
      minor: fc.bigInt({ min: -(10n ** 12n), max: 10n ** 12n }),
      asString: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(record, { maxLength: 60 }), (records) => {
        const counter = createSummaryCounter({ timeZone: 'UTC', amountUnit: 'minor' });
        const expected = new Map<string, bigint>();
        const digits: Record<string, number> = { EUR: 2, JPY: 0, BHD: 3 };
        for (const [i, r] of records.entries()) {
          const d = digits[r.currency] as number;
          const negative = r.minor < 0n;
          const text = (negative ? -r.minor : r.minor).toString().padStart(d + 1, '0');
          const decimal = `${negative ? '-' : ''}${d === 0 ? text : `${text.slice(0, -d)}.${text.slice(-d)}`}`;
          counter.add({
            id: i,
            currency: r.currency,
            amount: r.asString ? decimal : Number(r.minor),
            created_at: '2026-10-01T00:00:00',
          });
          expected.set(r.currency, (expected.get(r.currency) ?? 0n) + reference(r.minor, d));
        }
        const summary = counter.result(true);
        for (const total of summary.totals) {
          const [whole = '', fraction = ''] = total.total.replace('-', '').split('.');
          const thousandths =
            BigInt(whole + fraction.padEnd(3, '0')) * (total.total.startsWith('-') ? -1n : 1n);
          expect(thousandths).toBe(expected.get(total.currency));
        }
        expect(summary.totals.map((t) => t.currency).sort()).toEqual([...expected.keys()].sort());
        expect(summary.count).toBe(records.length);
      }),
      { numRuns: 200 },
    );
  });

  it('counts per status, per day in the configured zone, and reports what it cannot read instead of guessing', () => {
    const counter = createSummaryCounter({
      timeZone: 'Europe/Berlin',
      amountUnit: 'minor',
      settledStatuses: ['COMPLETED', 'chargeback_open'],
    });
    counter.add({
      id: 5,
      status: 'AWAITING',
      amount: 700,
      currency: 'USD',
      created_at: '2026-10-02T09:00:00',
    });
    counter.add({
      id: 1,
      status: 'COMPLETED',
      amount: 1050,
      currency: 'EUR',
      created_at: '2026-10-01T23:30:00Z',
    });
    counter.add({
      id: 2,
      status: 'COMPLETED',
      amount: '2.50',
      currency: 'EUR',
      created_at: '2026-10-01T12:00:00',
    });
    counter.add({ id: 3, status: 'chargeback_open', amount: '12,50', currency: 'EUR', created_at: 'soon' });
    counter.add({ id: 4, amount: 100, created_at: '2026-10-02T08:00:00' });
    expect(counter.result(false)).toEqual({
      count: 5,
      complete: false,
      by_status: [
        { status: 'COMPLETED', count: 2 },
        { status: 'AWAITING', count: 1 },
        { status: 'chargeback_open', count: 1 },
        { status: null, count: 1 },
      ],
      // Every status its own money, uninterpreted amounts counted but in no total.
      by_status_totals: [
        { status: 'COMPLETED', count: 2, totals: [{ currency: 'EUR', count: 2, total: '13.00' }] },
        { status: 'AWAITING', count: 1, totals: [{ currency: 'USD', count: 1, total: '7.00' }] },
        { status: 'chargeback_open', count: 1, totals: [] },
        { status: null, count: 1, totals: [] },
      ],
      totals: [
        { currency: 'EUR', count: 2, total: '13.00' },
        { currency: 'USD', count: 1, total: '7.00' },
      ],
      // The settled statuses' totals apart: the AWAITING dollars are not in them.
      settled: [{ currency: 'EUR', count: 2, total: '13.00' }],
      uninterpreted: 2,
      days: [
        { day: '2026-10-01', count: 1, totals: [{ currency: 'EUR', count: 1, total: '2.50' }] },
        {
          day: '2026-10-02',
          count: 3,
          totals: [
            { currency: 'EUR', count: 1, total: '10.50' },
            { currency: 'USD', count: 1, total: '7.00' },
          ],
        },
      ],
      undated: 1,
    });
  });
});
