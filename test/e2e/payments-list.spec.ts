import { expect, renderedIds, sandboxIds, sandboxPage, screenshot, signInByApi, test } from './fixtures.ts';

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

test('scrolling loads further pages in order, with no duplicate ids', async ({ page }) => {
  const expected = await sandboxIds({ limit: '100' }, undefined, 300);
  await page.goto('/?limit=50');
  await expect(page.locator('tbody tr[data-row-id]').first()).toBeVisible();
  const seen: string[] = [];
  const scroller = page.locator('.grid-scroll');
  for (let step = 0; step < 40 && seen.length < 260; step++) {
    for (const id of await renderedIds(page)) if (!seen.includes(id)) seen.push(id);
    await scroller.evaluate((el) => el.scrollBy(0, el.clientHeight));
    await page.waitForTimeout(60);
  }
  expect(new Set(seen).size).toBe(seen.length);
  expect(seen.length).toBeGreaterThanOrEqual(200);
  expect(seen).toEqual(expected.slice(0, seen.length));
  const count = Number(
    (await page.getByTestId('list-status').textContent())?.match(/[\d,]+/)?.[0]?.replace(/,/g, ''),
  );
  expect(count).toBeGreaterThanOrEqual(200);
  expect(await page.locator('tbody tr').count()).toBeLessThan(80);
});
