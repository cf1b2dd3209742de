import { expect, signInByApi, test } from './fixtures.ts';

test('the sticky table header stays visible at the top of the scroll container after scrolling far down', async ({
  page,
}) => {
  await signInByApi(page);
  await page.goto('/?limit=100');
  await expect(page.locator('tbody tr[data-row-id]').first()).toBeVisible();
  const scroller = page.locator('.grid-scroll');

  // Far down: past the first page, so the rows under the header are ones that were never at the top.
  for (let step = 0; step < 3; step++) {
    await scroller.evaluate((el) => el.scrollBy(0, 1500));
    await page.waitForTimeout(100);
  }
  const scrolled = await scroller.evaluate((el) => el.scrollTop);
  expect(scrolled).toBeGreaterThan(3000);

  const placement = await page.evaluate(() => {
    const container = document.querySelector<HTMLElement>('.grid-scroll');
    const headerRow = document.querySelector<HTMLElement>('thead tr');
    if (!container || !headerRow) throw new Error('no table');
    const box = container.getBoundingClientRect();
    const head = headerRow.getBoundingClientRect();
    // the point just below the header's top, at the middle of the first column: what the user sees there
    const seen = document.elementFromPoint(head.left + 20, head.top + head.height / 2);
    return {
      containerTop: box.top + container.clientTop,
      headerTop: head.top,
      headerHeight: head.height,
      headerOnTop: seen?.closest('thead') != null,
    };
  });
  expect(placement.headerHeight).toBeGreaterThan(10);
  expect(Math.abs(placement.headerTop - placement.containerTop)).toBeLessThanOrEqual(1);
  // not hidden behind the rows that scroll under it
  expect(placement.headerOnTop).toBe(true);
  await expect(page.getByRole('columnheader', { name: 'Created (UTC)' })).toBeInViewport();
});
