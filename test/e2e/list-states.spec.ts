import { answerUnavailable, expect, renderedIds, screenshot, signInByApi, test } from './fixtures.ts';

test.beforeEach(async ({ page }) => {
  await signInByApi(page);
});

test('the first load shows a skeleton, then the rows', async ({ page }) => {
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/api/payments?*', async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/');
  await expect(page.getByTestId('skeleton')).toBeVisible();
  await expect(page.getByTestId('list-status')).toHaveText('Loading payments…');
  await screenshot(page, 'first-load-skeleton');
  release();
  await expect(page.locator('tbody tr[data-row-id]').first()).toBeVisible();
  await expect(page.getByTestId('skeleton')).toHaveCount(0);
});

test('a failed page keeps the loaded rows, and Retry resumes from where it failed', async ({ page }) => {
  let failed = 0;
  const cursors: string[] = [];
  await page.route('**/api/payments?*', async (route) => {
    const cursor = new URL(route.request().url()).searchParams.get('cursor');
    if (cursor) cursors.push(cursor);
    if (cursor && failed === 0) {
      failed++;
      await answerUnavailable(route);
      return;
    }
    await route.continue();
  });
  await page.goto('/?limit=25');
  const retry = page.getByRole('button', { name: 'Retry' });
  await expect(retry).toBeVisible();
  await expect(page.getByRole('alert')).toContainText('The payments service is not answering right now');
  // The failed page took nothing away: the first page is still loaded, and its rows are still drawn.
  await expect(page.getByTestId('list-status')).toContainText(/^25 payments loaded/);
  const before = await renderedIds(page);
  expect(before.length).toBeGreaterThanOrEqual(10);
  await screenshot(page, 'error-with-retry');
  await retry.click();
  await expect(retry).toBeHidden();
  await expect(page.getByTestId('list-status')).toContainText(/^(50|75|100) payments loaded/);
  expect((await renderedIds(page)).slice(0, before.length)).toEqual(before);
  // the retry asked again for the cursor that failed, not for the first page
  expect(cursors[1]).toBe(cursors[0]);
});

test('a first page that fails is asked for twice at most, then shown with a Retry that asks again', async ({
  page,
}) => {
  const asked: Array<string | null> = [];
  await page.route('**/api/payments?*', async (route) => {
    asked.push(new URL(route.request().url()).searchParams.get('cursor'));
    if (asked.length > 2) return route.continue();
    await answerUnavailable(route);
  });
  await page.goto('/?limit=25');
  await expect(page.getByRole('alert')).toContainText('The payments service is not answering right now');
  await expect(page.locator('tbody tr[data-row-id]')).toHaveCount(0);
  // The request the list route's loader makes as the page loads, and the list's own once it is drawn; the
  // signed-in area does not add a third.
  expect(asked).toEqual([null, null]);
  await page.getByRole('button', { name: 'Retry' }).click();
  await expect(page.locator('tbody tr[data-row-id]').first()).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
  // Retry asked for the first page again; the pages after it follow from its cursor.
  expect(asked[2]).toBeNull();
  expect(asked.slice(3).every((cursor) => cursor !== null)).toBe(true);
});

test('when the dashboard could not start, its Retry brings the list, whose first page had failed meanwhile', async ({
  page,
}) => {
  // The config fails until Retry is pressed (the request made before the app draws and the layout's own, one
  // request or two as they happen to meet): the dashboard cannot start. The first page fails once meanwhile.
  let configFails = true;
  await page.route('**/api/config', async (route) => {
    if (!configFails) return route.continue();
    await answerUnavailable(route);
  });
  let pageFailed = false;
  await page.route('**/api/payments?*', async (route) => {
    if (pageFailed) return route.continue();
    pageFailed = true;
    await answerUnavailable(route);
  });
  await page.goto('/?limit=25');
  await expect(page.getByRole('heading', { name: 'The dashboard could not start' })).toBeVisible();
  configFails = false;
  await page.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByTestId('list-status')).toContainText(/^\d+ payments loaded/);
  await expect(page.getByRole('alert')).toHaveCount(0);
  expect(pageFailed).toBe(true);
});

test('a view without payments says so and offers to clear the filters', async ({ page }) => {
  await page.goto('/?company=acme-us-ca&status=FAILED&date_from=2026-05-31T23:59:59');
  await expect(page.getByText('No payments match these filters.')).toBeVisible();
  await expect(page.getByTestId('list-status')).toHaveText('0 payments loaded · end of list');
  await screenshot(page, 'empty-result');
  await page.locator('.panel--empty').getByRole('button', { name: 'Clear filters' }).click();
  await expect(page).toHaveURL(/\/\?company=acme-us-ca$/);
});
