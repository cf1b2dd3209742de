import { describe, expect, it } from 'vitest';
import { dailySeries, mainCurrency } from './daily-series.ts';

const eur = (total: string, count = 1) => [{ currency: 'EUR', count, total }];

describe('the daily series of the chart', () => {
  it('fills the days without payments between the first and the last with zero', () => {
    const series = dailySeries(
      [
        { day: '2026-02-27', count: 2, totals: eur('3.00', 2) },
        { day: '2026-03-02', count: 1, totals: eur('1.50') },
      ],
      { dateFrom: null, dateTo: null },
    );
    expect(series.map((d) => [d.day, d.count])).toEqual([
      ['2026-02-27', 2],
      ['2026-02-28', 0],
      ['2026-03-01', 0],
      ['2026-03-02', 1],
    ]);
  });

  it("spans the filter's whole range, even its days without payments", () => {
    const series = dailySeries([{ day: '2026-10-02', count: 1, totals: eur('1.00') }], {
      dateFrom: '2026-10-01T00:00:00',
      dateTo: '2026-10-03T23:59:59',
    });
    expect(series.map((d) => d.day)).toEqual(['2026-10-01', '2026-10-02', '2026-10-03']);
  });

  it('keeps the days as they are when the range is reversed or absurdly long', () => {
    const days = [{ day: '2026-10-02', count: 1, totals: [] }];
    expect(dailySeries(days, { dateFrom: '2026-10-03T00:00:00', dateTo: '2026-10-01T00:00:00' })).toEqual(
      days,
    );
    expect(dailySeries(days, { dateFrom: '0001-01-01T00:00:00', dateTo: null })).toEqual(days);
    expect(dailySeries([], { dateFrom: null, dateTo: null })).toEqual([]);
  });

  it('draws the volume of the currency most payments are in', () => {
    expect(
      mainCurrency([
        { currency: 'EUR', count: 3, total: '1.00' },
        { currency: 'JPY', count: 9, total: '100' },
        { currency: 'USD', count: 9, total: '5.00' },
      ]),
    ).toBe('JPY');
    expect(mainCurrency([])).toBeNull();
  });
});
