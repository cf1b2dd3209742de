import { expect, signInByApi, test } from './fixtures.ts';

test.beforeEach(async ({ page }) => {
  await signInByApi(page);
});

test('a sorted view says how old it is, and Refresh sorts it again from a walk begun after the click', async ({
  page,
}) => {
  const firstPages: { fresh: string | null; asOf: string }[] = [];
  page.on('response', async (response) => {
    const url = new URL(response.url());
    if (url.pathname !== '/api/payments' || url.searchParams.get('cursor') !== null) return;
    const body = (await response.json().catch(() => null)) as { as_of?: string } | null;
    firstPages.push({ fresh: url.searchParams.get('fresh'), asOf: body?.as_of ?? '' });
  });
  // One company: its whole list is walked and sorted, on a shared machine.
  await page.goto('/?company=acme&sort=amount:desc');
  await expect(page.locator('tbody tr[data-row-id]').first()).toBeVisible({ timeout: 30_000 });
  const freshness = page.getByTestId('freshness');
  await expect(freshness).toHaveText(/^Sorted as of \d{2}:\d{2}$/);
  expect(firstPages.map((p) => p.fresh)).toEqual([null]);
  const sortedAt = Date.parse(firstPages[0]?.asOf ?? '');

  const clicked = Date.now();
  await page.getByRole('button', { name: 'Refresh' }).click();
  await expect.poll(() => firstPages.length, { timeout: 30_000 }).toBe(2);
  expect(firstPages[1]?.fresh).toBe('true');
  // A new snapshot, walked from after the click (the BFF and the browser share this machine's clock).
  const refreshedAt = Date.parse(firstPages[1]?.asOf ?? '');
  expect(refreshedAt).toBeGreaterThan(sortedAt);
  expect(refreshedAt).toBeGreaterThanOrEqual(clicked - 1_000);
  await expect(freshness).toHaveText(/^Sorted as of \d{2}:\d{2}$/);
  await expect(page.locator('tbody tr[data-row-id]').first()).toBeVisible();
});
