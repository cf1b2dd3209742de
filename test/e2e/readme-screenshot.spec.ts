import { expect, signInByApi, test } from './fixtures.ts';

/**
 * The README's picture of the dashboard (docs/screenshot.png), made by every end-to-end run: a group's payments
 * over a month, its figures and chart, and the Export menu open.
 */
test.use({ viewport: { width: 1280, height: 660 } });

test('the README screenshot shows a group, its figures and the export menu', async ({ page }) => {
  // a fixed clock: the picture ("Updated 09:30") changes only when the dashboard does
  await page.clock.setFixedTime(new Date('2026-06-01T09:30:00Z'));
  // and the figures counted a minute before it: their "as of" is the BFF's own clock otherwise
  await page.route('**/api/payments/summary?*', async (route) => {
    const response = await route.fetch();
    const body = (await response.text()).replaceAll(/"as_of":"[^"]*"/g, '"as_of":"2026-06-01T09:29:00.000Z"');
    await route.fulfill({ response, body });
  });
  await signInByApi(page);
  await page.goto('/?company=acme-eu&group=true&date_from=2026-05-01T00:00:00&date_to=2026-05-31T23:59:59');
  await expect(page.locator('tbody tr[data-row-id]').first()).toBeVisible();
  await expect(page.getByTestId('summary-count')).toBeVisible({ timeout: 20_000 });
  await page.getByRole('button', { name: 'Export' }).click();
  await expect(page.getByRole('menu')).toBeVisible();
  const path = new URL('../../docs/screenshot.png', import.meta.url).pathname;
  const picture = await page.screenshot({ path });
  expect(picture.byteLength).toBeLessThan(200_000);
});
