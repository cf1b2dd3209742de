import { chooseOnlyStatus, expect, exportAs, screenshot, signInByApi, test } from './fixtures.ts';

test.describe('at 390 px', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the list is the table, scrolling sideways under its pinned id, with the same infinite loading and URL state', async ({
    page,
  }) => {
    await signInByApi(page);
    await page.goto('/?company=acme');
    const first = page.locator('tbody tr[data-row-id]').first();
    await expect(first).toBeVisible();
    await expect(page.locator('thead')).toBeVisible();
    await expect(first.locator('[data-column="id"]')).toBeInViewport();
    // the columns are wider than the screen: the table scrolls sideways in its box, the page does not
    const widths = await page.locator('.grid-scroll').evaluate((box) => ({
      scrolls: box.scrollWidth > box.clientWidth,
      page: document.documentElement.scrollWidth,
    }));
    expect(widths).toEqual({ scrolls: true, page: 390 });
    await screenshot(page, 'table-390');

    // Scrolling to the end of the rows loads the next pages.
    const rowCount = () =>
      page
        .locator('table[aria-rowcount]')
        .evaluate((table) => Number(table.getAttribute('aria-rowcount')) - 1);
    const before = await rowCount();
    for (let i = 0; i < 3; i++) {
      await page
        .locator('.grid-scroll')
        .evaluate((scroller) => scroller.scrollTo({ top: scroller.scrollHeight }));
      await page.waitForTimeout(300);
    }
    await expect.poll(rowCount).toBeGreaterThan(before);

    // The filters fold into a panel; what is chosen there goes to the URL, and a reload keeps it.
    const status = page.locator('.status-choice .menu-button__button');
    await expect(status).toBeHidden();
    await page.getByRole('button', { name: 'Filters' }).click();
    await chooseOnlyStatus(page, 'FAILED');
    await expect(page).toHaveURL(/[?&]status=FAILED/);
    await expect(page.getByRole('button', { name: 'Filters (1)' })).toBeVisible();
    await expect(page.locator('tbody [data-column="status"]').first()).toHaveText('FAILED');
    await page.reload();
    await expect(page.locator('tbody [data-column="status"]').first()).toHaveText('FAILED');
    await expect(page.locator('tbody [data-column="status"]').filter({ hasNotText: 'FAILED' })).toHaveCount(
      0,
    );
    await screenshot(page, 'table-390-filtered');
  });
});

test.describe('at 1024 px', () => {
  test.use({ viewport: { width: 1024, height: 768 } });

  test('the toolbar does not move when an export starts and says how it goes', async ({ page }) => {
    await signInByApi(page);
    await page.goto('/?company=acme-jp');
    await expect(page.locator('tbody tr[data-row-id]').first()).toBeVisible();

    const places = () =>
      Promise.all(
        [
          page.getByRole('button', { name: 'Refresh' }),
          page.locator('summary', { hasText: 'Columns' }),
          page.locator('.grid-scroll'),
        ].map((locator) => locator.boundingBox()),
      );
    const before = await places();
    const download = page.waitForEvent('download');
    await exportAs(page, 'CSV, shown columns');
    await download;
    await expect(page.getByTestId('export-status')).toHaveText(/^Saved /);
    expect(await places()).toEqual(before);
    await screenshot(page, 'toolbar-1024-after-export');
  });
});

interface Totals {
  currency: string;
  total: string;
}
interface Figures {
  totals: Totals[];
  by_status_totals: { status: string; totals: Totals[] }[];
  companies: { company_id: string; totals: Totals[] }[];
}

/** A total as a person reads it in en-US: the screen's locale in these tests. */
const money = ({ currency, total }: Totals) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(Number(total));

for (const width of [320, 390]) {
  test.describe(`on a ${width} px phone`, () => {
    test.use({ viewport: { width, height: 844 } });

    test("a group's figures wrap into lines, each total shown whole, and a row names its reference and company", async ({
      page,
    }) => {
      test.setTimeout(90_000);
      await signInByApi(page);
      const may = 'date_from=2026-05-01T00:00:00&date_to=2026-05-31T23:59:59';
      await page.goto(`/?company=acme-eu&group=true&${may}`);
      await expect(page.getByTestId('summary-count')).toBeVisible({ timeout: 60_000 });
      await page.getByRole('button', { name: 'Per status and company' }).click();
      await expect(page.getByTestId('summary-companies')).toBeVisible();
      const api = { 'X-CSRF': '1', 'X-Company-Id': 'acme-eu' };
      const figures = (await (
        await page.request.get(`/api/payments/summary?group=true&${may}`, { headers: api })
      ).json()) as Figures;

      // every total's text, in the order the figures list them, each within the screen and not cut by its box
      const shown = async (list: string) => {
        const seen = await page.locator(list).evaluate((element) =>
          [...element.querySelectorAll('li.summary__amount, li > .summary__amount')].map((amount) => {
            const box = amount.getBoundingClientRect();
            return {
              text: amount.textContent ?? '',
              whole:
                amount.scrollWidth <= amount.clientWidth && box.left >= 0 && box.right <= window.innerWidth,
            };
          }),
        );
        for (const { text, whole } of seen) expect(whole, `${text} in ${list}`).toBe(true);
        return seen.map(({ text }) => text);
      };
      expect(await shown('[data-testid="summary-totals"]')).toEqual(figures.totals.map(money));
      for (const { status, totals } of figures.by_status_totals)
        expect(await shown(`[data-testid="summary-status-totals-${status}"]`)).toEqual(totals.map(money));
      for (const { company_id, totals } of figures.companies)
        expect(await shown(`[data-testid="summary-companies"] tr[data-company-id="${company_id}"]`)).toEqual(
          totals.map(money),
        );
      // nothing in the figures scrolls sideways: each list, each line and the summary fit their boxes
      const scrolling = await page
        .locator('.summary')
        .evaluate((summary) =>
          [summary, ...summary.querySelectorAll('ul, li, p, tr, .summary__line, .summary__total-group')]
            .filter((element) => element.scrollWidth > element.clientWidth)
            .map((element) => `${element.tagName}.${element.className}`),
        );
      expect(scrolling).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(width);

      // the first row, with the table not scrolled sideways, shows its id, reference and company
      const first = (await (
        await page.request.get(`/api/payments?group=true&limit=1&${may}`, { headers: api })
      ).json()) as { data: { id: string; reference: string; company_id: string }[] };
      const row = first.data[0];
      if (!row) throw new Error('the view has no rows');
      const name = await page
        .getByTestId('summary-companies')
        .locator(`tr[data-company-id="${row.company_id}"] th`)
        .textContent();
      const pinned = page.locator(`tbody tr[data-row-id="${row.id}"] [data-column="id"]`);
      await expect(pinned.getByRole('link')).toHaveText(row.id);
      const aside = pinned.locator('.row-aside');
      await expect(aside).toHaveText([row.reference, name ?? '']);
      await pinned.scrollIntoViewIfNeeded();
      for (const line of await aside.all()) {
        await expect(line).toBeInViewport({ ratio: 1 });
        // whole, not cut at its end, and within the row
        expect(
          await line.evaluate((element) => {
            const box = element.getBoundingClientRect();
            const cell = element.closest('tr')?.getBoundingClientRect();
            return (
              element.scrollWidth <= element.clientWidth &&
              cell !== undefined &&
              box.bottom <= cell.bottom &&
              box.top >= cell.top
            );
          }),
        ).toBe(true);
      }
      await screenshot(page, `figures-${width}`);
    });
  });
}

// On a phone the figures wrap into as many lines as they need, which their placeholder cannot know: there the rows
// move once when they arrive (the price of every total shown whole). Wider screens keep them where they are.
for (const viewport of [
  { width: 1024, height: 768 },
  { width: 1350, height: 940 },
]) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });

    test('the rows stay where they are drawn while the summary, its chart and the export arrive', async ({
      page,
    }) => {
      await page.addInitScript(() => {
        const shifts: { at: number; value: number; nodes: string[] }[] = [];
        (window as unknown as { shifts: typeof shifts }).shifts = shifts;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as unknown as {
            startTime: number;
            value: number;
            sources: { node?: Node }[];
          }[])
            shifts.push({
              at: entry.startTime,
              value: entry.value,
              nodes: entry.sources.map((source) => {
                const node = source.node as Element | undefined;
                const { previousRect: was, currentRect: is } = source as unknown as Record<string, DOMRect>;
                return `${node?.nodeName}.${node?.className} y ${was?.y} → ${is?.y}, height ${was?.height} → ${is?.height}`;
              }),
            });
        }).observe({ type: 'layout-shift', buffered: true });
      });
      // the count is held back until the first rows are drawn, as on a slow upstream
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      await page.route('**/api/payments/summary**', async (route) => {
        await held;
        await route.continue();
      });
      await signInByApi(page);
      await page.goto('/?company=acme');
      const rows = page.locator('.grid-scroll');
      await expect(page.locator('tbody tr[data-row-id]').first()).toBeVisible();
      await expect(page.getByTestId('summary-progress')).toBeVisible();
      const before = await rows.boundingBox();
      const drawnAt = await page.evaluate(() => performance.now());
      release();
      await expect(page.getByTestId('summary-count')).toBeVisible();
      await expect(page.getByRole('button', { name: 'Export' })).toBeEnabled();
      await expect(page.getByTestId('freshness')).toBeVisible();
      expect((await rows.boundingBox())?.y).toBe(before?.y);
      const shifts = await page.evaluate(
        (since) =>
          (window as unknown as { shifts: { at: number }[] }).shifts.filter((shift) => shift.at >= since),
        drawnAt,
      );
      expect(shifts).toEqual([]);
      await screenshot(page, `summary-arrived-${viewport.width}`);
    });
  });
}
