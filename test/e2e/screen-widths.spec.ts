import type { Locator, Page, TestInfo } from '@playwright/test';
import { expect, exportAs, signInByApi, test } from './fixtures.ts';

/** The document is never wider than the screen: nothing can be scrolled to sideways, or open off-screen. */
async function fitsTheScreen(page: Page, state: string): Promise<void> {
  const { page: wide, screen } = await page.evaluate(() => ({
    page: document.documentElement.scrollWidth,
    screen: window.innerWidth,
  }));
  expect(wide, `the page's width with ${state}`).toBeLessThanOrEqual(screen);
}

/**
 * The table's box within the screen: columns wider than it scroll sideways inside it (under the pinned ones),
 * never the page; and its rows as wide as its columns, so a row's background reaches the last one.
 */
async function tableFitsItsBox(page: Page, state: string): Promise<void> {
  const sizes = await page.locator('.grid-scroll').evaluate((box) => ({
    right: box.getBoundingClientRect().right,
    screen: window.innerWidth,
    content: box.scrollWidth,
    table: box.querySelector('table')?.getBoundingClientRect().width ?? 0,
    row: box.querySelector('tbody tr')?.getBoundingClientRect().width ?? 0,
  }));
  expect(sizes.right, `the table's box with ${state}`).toBeLessThanOrEqual(sizes.screen);
  expect(Math.round(sizes.table), `the table with ${state}`).toBe(sizes.content);
  expect(sizes.row, `a row with ${state}`).toBe(sizes.table);
}

/** Shown whole: within the screen, not cut by its box, and on top wherever it is drawn. */
async function shownWhole(locator: Locator, what: string): Promise<void> {
  await expect(locator).toBeVisible();
  const seen = await locator.evaluate((element) => {
    const box = element.getBoundingClientRect();
    const points = [
      [box.left + 2, box.top + box.height / 2],
      [box.left + box.width / 2, box.top + box.height / 2],
      [box.right - 2, box.top + box.height / 2],
    ] as const;
    return {
      inScreen: box.left >= 0 && box.right <= window.innerWidth && box.top >= 0,
      cut: element.scrollWidth > element.clientWidth || element.scrollHeight > element.clientHeight,
      covered: points.filter(([x, y]) => !element.contains(document.elementFromPoint(x, y))).length,
    };
  });
  expect(seen, what).toEqual({ inScreen: true, cut: false, covered: 0 });
}

/** Where the toolbar's controls are: they must not move while the view and its messages change. */
function toolbarPlaces(page: Page) {
  return page.evaluate(() => {
    const toolbar = document.querySelector('.toolbar');
    const places = [...(toolbar?.querySelectorAll('button, select, input') ?? [])]
      .filter((control) => control.getClientRects().length > 0)
      .map((control, index) => {
        const { x, y, width } = control.getBoundingClientRect();
        return `${control.tagName}#${index}@${Math.round(x)},${Math.round(y)},${Math.round(width)}`;
      });
    return { height: Math.round(toolbar?.getBoundingClientRect().height ?? 0), places };
  });
}

/**
 * The view's figures counted. One count per user runs at a time, and the other specs sign in as the same user: a
 * count they replaced is asked for again, with its Retry.
 */
async function counted(page: Page): Promise<void> {
  const count = page.getByTestId('summary-count');
  const retry = page.locator('.summary').getByRole('button', { name: 'Retry' });
  for (let attempt = 0; attempt < 3; attempt++) {
    await expect(count.or(retry)).toBeVisible({ timeout: 30_000 });
    if (await count.isVisible()) return;
    await retry.click();
  }
  await expect(count).toBeVisible();
}

/** A screenshot of the state, kept with the run's artifacts (test-results/artifacts/…). */
async function keep(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const path = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path });
  await testInfo.attach(name, { path, contentType: 'image/png' });
}

for (const width of [320, 390, 768, 1024, 1440, 1920]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test('the page never overflows: with the summary, a group, a rejected date and an export running', async ({
      page,
    }, testInfo) => {
      test.setTimeout(120_000);
      // the download is held, so the export stays running while it is looked at
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      await page.route('**/api/payments/export.csv**', async (route) => {
        await held;
        await route.abort();
      });
      await signInByApi(page);
      await page.goto('/?company=acme-eu');
      await expect(page.locator('tbody tr[data-row-id]').first()).toBeVisible();
      await counted(page);
      if (width < 640) await page.getByRole('button', { name: /^Filters/ }).click();
      const toolbar = await toolbarPlaces(page);
      await fitsTheScreen(page, 'the summary');
      await tableFitsItsBox(page, 'the summary');
      await keep(page, testInfo, `summary-${width}`);

      await page.locator('.company-switcher__button').click();
      await page.getByRole('link', { name: 'Acme Europe B.V. and its subsidiaries' }).click();
      await expect(page).toHaveURL(/[?&]group=true/);
      await counted(page);
      await expect(page.locator('tbody tr[data-row-id]').first()).toBeVisible();
      expect((await toolbarPlaces(page)).height, 'the toolbar with a group chosen').toBe(toolbar.height);
      await fitsTheScreen(page, 'a group');
      await tableFitsItsBox(page, 'a group');
      await keep(page, testInfo, `group-${width}`);

      const from = page.getByLabel(/^Created from/);
      await from.fill('31/02/2026');
      await from.press('Enter');
      const dateError = page.getByRole('alert').filter({ hasText: 'Not applied' });
      await expect(dateError).toBeVisible();
      expect(await toolbarPlaces(page), 'the toolbar with a rejected date').toEqual(toolbar);
      await shownWhole(dateError, 'the rejected date');
      await fitsTheScreen(page, 'a rejected date');

      await exportAs(page, 'CSV, shown columns');
      const status = page.getByTestId('export-status');
      await expect(status).toHaveText(/^Exporting…/);
      expect(await toolbarPlaces(page), 'the toolbar with an export running').toEqual(toolbar);
      await shownWhole(status, "the export's status");
      await shownWhole(dateError, 'the rejected date beside the export');
      await fitsTheScreen(page, 'an export running');
      await tableFitsItsBox(page, 'an export running');
      await keep(page, testInfo, `export-running-${width}`);

      release();
      await expect(status).toHaveText(/^Export failed/);
      await shownWhole(status, "the export's failure");
      await fitsTheScreen(page, "the export's failure");
      await keep(page, testInfo, `export-failed-${width}`);
    });
  });
}
