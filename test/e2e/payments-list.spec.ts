import {
  expect,
  renderedIds,
  renderedRows,
  sandboxIds,
  sandboxPage,
  screenshot,
  signInByApi,
  test,
} from './fixtures.ts';

test.beforeEach(async ({ page }) => {
  await signInByApi(page);
});

test('the first rows are the sandbox’s first page, formatted, with the zone named', async ({ page }) => {
  const expected = await sandboxPage({ limit: '50' });
  await page.goto('/');
  await expect(page.locator('tbody tr[data-row-id]').first()).toBeVisible();
  const shown = await renderedIds(page);
  expect(shown.length).toBeGreaterThan(5);
  expect(shown).toEqual(expected.data.slice(0, shown.length).map((p) => p.id));
  const first = expected.data[0];
  if (!first) throw new Error('the sandbox has no payments');
  const row = page.locator(`tr[data-row-id="${first.id}"]`);
  await expect(row.locator('[data-column="created_at"]')).toHaveText(
    `${first.created_at.replace('T', ' ')} UTC`,
  );
  await expect(row.locator('[data-column="status"]')).toHaveText(first.status);
  await expect(page.getByRole('columnheader', { name: 'Created (UTC)' })).toBeVisible();
  await expect(page.getByTestId('list-status')).toContainText('more available');
  await screenshot(page, 'payments-list');
});

test('scrolling loads further pages in order, each payment in one row', async ({ page }) => {
  const expected = await sandboxIds({ limit: '100' }, undefined, 300);
  await page.goto('/?limit=50');
  await expect(page.locator('tbody tr[data-row-id]').first()).toBeVisible();
  // Each row by its position in the whole list, so that a payment drawn twice shows as two positions.
  const byPosition = new Map<number, string>();
  const scroller = page.locator('.grid-scroll');
  while (byPosition.size < 260) {
    const rows = await renderedRows(page);
    for (const { index, id } of rows) byPosition.set(index, id);
    const last = rows.at(-1)?.index ?? 0;
    await scroller.evaluate((el) => el.scrollBy(0, el.clientHeight));
    // Further rows are drawn once the scroll lands, or, at the end of what is loaded, once the next page is in.
    await expect
      .poll(async () => (await renderedRows(page)).at(-1)?.index ?? 0, { timeout: 10_000 })
      .toBeGreaterThan(last);
  }
  const positions = [...byPosition.keys()].sort((a, b) => a - b);
  // aria-rowindex 1 is the header row: the data rows are 2, 3, … with none skipped.
  expect(positions).toEqual(positions.map((_, i) => i + 2));
  const ids = positions.map((position) => byPosition.get(position));
  expect(ids).toEqual(expected.slice(0, ids.length));
  expect(new Set(ids).size).toBe(ids.length);
  const count = Number(
    (await page.getByTestId('list-status').textContent())?.match(/[\d,]+/)?.[0]?.replace(/,/g, ''),
  );
  expect(count).toBeGreaterThanOrEqual(260);
  expect(await page.locator('tbody tr').count()).toBeLessThan(80);
});

test('a payment that two pages both hold is shown once', async ({ page }) => {
  // A real upstream may repeat a row across a page boundary when rows change between two requests.
  let lastOfFirst: unknown;
  let repeated = false;
  await page.route('**/api/payments?*', async (route) => {
    const response = await route.fetch();
    const body = (await response.json()) as { data: unknown[] };
    if (!new URL(route.request().url()).searchParams.has('cursor')) lastOfFirst = body.data.at(-1);
    else if (!repeated && lastOfFirst !== undefined) {
      body.data.unshift(lastOfFirst);
      repeated = true;
    }
    await route.fulfill({ response, json: body });
  });
  await page.goto('/?limit=25');
  await expect.poll(() => repeated).toBe(true);
  // Pages of 25 and one row in two of them: 25 × pages rows when it is shown once, one more when twice.
  const settled = page.getByTestId('list-status');
  await expect(settled).toContainText('more available');
  const loaded = Number((await settled.textContent())?.match(/^(\d+) payments loaded/)?.[1]);
  expect(loaded).toBeGreaterThanOrEqual(50);
  expect(loaded % 25).toBe(0);
  // The rows around the seam (the 25th and the 26th) are drawn, each payment once.
  await page.locator('.grid-scroll').evaluate((el) => {
    const row = el.querySelector('tbody tr[data-row-id]');
    el.scrollTop = 15 * (row?.getBoundingClientRect().height ?? 0);
  });
  await expect
    .poll(async () => (await renderedRows(page)).map((row) => row.index))
    .toEqual(expect.arrayContaining([26, 27]));
  const ids = await renderedIds(page);
  expect(new Set(ids).size).toBe(ids.length);
  // the scroll may have asked for a further page: its answer, still in the route above, is no longer needed
  await page.unrouteAll({ behavior: 'ignoreErrors' });
});
