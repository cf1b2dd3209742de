import type { Summary } from '@payments/shared';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { DailyChart } from './daily-chart.tsx';

afterEach(cleanup);

const summary: Summary = {
  count: 5,
  complete: true,
  by_status: [{ status: 'COMPLETED', count: 5 }],
  totals: [
    { currency: 'EUR', count: 4, total: '30.50' },
    { currency: 'USD', count: 1, total: '7.25' },
  ],
  uninterpreted: 0,
  days: [
    { day: '2026-10-01', count: 3, totals: [{ currency: 'EUR', count: 3, total: '10.50' }] },
    {
      day: '2026-10-03',
      count: 2,
      totals: [
        { currency: 'EUR', count: 1, total: '20.00' },
        { currency: 'USD', count: 1, total: '7.25' },
      ],
    },
  ],
  undated: 1,
};

function renderChart() {
  render(
    <DailyChart
      summary={summary}
      dateFrom="2026-10-01T00:00:00"
      dateTo="2026-10-04T23:59:59"
      timeZone="UTC"
    />,
  );
}

describe('DailyChart', () => {
  it('is one image whose label says the range and its busiest and largest days', () => {
    renderChart();
    const image = screen.getByRole('img');
    expect(image.getAttribute('aria-label')).toBe(
      'Payments per day from 2026-10-01 to 2026-10-04 (UTC). Most payments on 2026-10-01: 3. Largest EUR volume on 2026-10-03: €20.00.',
    );
    // a band of bars for each figure, drawn as one path: a bar for each day with payments, at that day's place
    // among the four days of the range (the 2nd and 4th have none), the busiest day full height
    expect(image.getAttribute('viewBox')).toBe('0 0 4 84');
    expect(image.querySelector('path.chart__count')?.getAttribute('d')).toBe(
      'M0.075 40v-40h0.85v40zM2.075 40v-26.67h0.85v26.67z',
    );
    expect(image.querySelector('path.chart__volume')?.getAttribute('d')).toBe(
      'M0.075 84v-21h0.85v21zM2.075 84v-40h0.85v40z',
    );
    expect(screen.getByRole('figure').textContent).toContain('1 without a date not drawn');
  });

  it('gives its numbers as a table, every day of the range with its count and volume', () => {
    renderChart();
    expect(screen.queryByRole('table')).toBeNull();
    const toggle = screen.getByText('Numbers');
    const details = toggle.closest('details') as HTMLDetailsElement;
    details.open = true;
    fireEvent(details, new Event('toggle'));
    const rows = within(screen.getByRole('table')).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.textContent)).toEqual([
      '2026-10-013€10.50',
      '2026-10-020',
      '2026-10-032€20.00 · $7.25',
      '2026-10-040',
    ]);
  });

  it('names the day under the pointer with its count and volume, and nothing once the pointer leaves', () => {
    renderChart();
    const image = screen.getByRole('img');
    image.getBoundingClientRect = () => new DOMRect(100, 0, 400, 36);
    // the third of four days spans x 300–400
    fireEvent.pointerMove(image, { clientX: 350 });
    expect(screen.getByTestId('chart-pointed').textContent).toBe('2026-10-03: 2 payments, €20.00');
    fireEvent.pointerMove(image, { clientX: 160 });
    expect(screen.getByTestId('chart-pointed').textContent).toBe('2026-10-01: 3 payments, €10.50');
    fireEvent.pointerLeave(image);
    expect(screen.queryByTestId('chart-pointed')).toBeNull();
  });

  it('draws the volume of another currency on request', () => {
    renderChart();
    const image = screen.getByRole('img');
    fireEvent.change(screen.getByRole('combobox', { name: 'Volume in currency' }), {
      target: { value: 'USD' },
    });
    expect(image.getAttribute('aria-label')).toContain('Largest USD volume on 2026-10-03: $7.25.');
  });

  it('has an axis with the first, middle and last days, and the scale of each band', () => {
    renderChart();
    const figure = screen.getByRole('figure');
    const axis = figure.querySelector('.chart__axis');
    expect([...(axis?.children ?? [])].map((day) => day.textContent)).toEqual([
      '2026-10-01',
      '2026-10-02',
      '2026-10-04',
    ]);
    // the busiest day's count and the largest EUR day's volume are the bands' full heights
    const scale = figure.querySelector('.chart__scale');
    expect([...(scale?.children ?? [])].map((value) => value.textContent)).toEqual(['3', '€20']);
  });

  it('opens its numbers in a box the keys can scroll, and Escape puts them away onto their summary', () => {
    renderChart();
    const summaryLine = screen.getByText('Numbers');
    fireEvent.click(summaryLine);
    const details = summaryLine.closest('details') as HTMLDetailsElement;
    details.open = true;
    fireEvent(details, new Event('toggle'));
    const box = screen.getByRole('region', { name: 'Payments and volume per day' });
    expect(box.tabIndex).toBe(0);
    box.focus();
    fireEvent.keyDown(box, { key: 'Escape' });
    expect(details.open).toBe(false);
    expect(document.activeElement).toBe(summaryLine);
  });
});
