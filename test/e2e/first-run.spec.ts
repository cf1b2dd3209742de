import { expect, screenshot, signInByApi, test } from './fixtures.ts';

test('a signed-out visit makes one session check and shows the sign-in page: no 401 burst, no 404', async ({
  page,
}) => {
  const api: string[] = [];
  const failed: string[] = [];
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (url.pathname.startsWith('/api/'))
      api.push(`${response.request().method()} ${url.pathname} ${response.status()}`);
    if (response.status() === 404) failed.push(url.pathname);
  });
  await page.goto('/?company=acme-eu&status=FAILED');
  await expect(page.getByRole('heading', { name: 'Sign in to Payments' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(api).toEqual(['GET /api/session 401']);
  expect(failed).toEqual([]);
  const icon = await page.request.get('/favicon.svg');
  expect(icon.status()).toBe(200);
  expect(icon.headers()['content-type']).toContain('image/svg+xml');
  await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', /payments/i);
});

test('signed in, the list page has one h1 and asks for its data at once', async ({ page }) => {
  await signInByApi(page);
  const api: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/api/')) api.push(url.pathname);
  });
  await page.goto('/');
  await expect(page.locator('tbody tr[data-row-id]').first()).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Payments');
  expect(api.filter((path) => path === '/api/session')).toHaveLength(1);
  expect(api).toContain('/api/payments');
});

test('values of the address that cannot be used are named in a notice, which can be dismissed', async ({
  page,
}) => {
  await signInByApi(page);
  await page.goto('/?status=PAID!&limit=7&date_from=2026-02-30T00:00:00');
  const notice = page.getByRole('status').filter({ hasText: 'Not used from the address' });
  await expect(notice).toContainText('status "PAID!"');
  await expect(notice).toContainText('date_from "2026-02-30T00:00:00"');
  await expect(notice).toContainText('limit "7"');
  await screenshot(page, 'ignored-url-values');
  await expect(page.locator('tbody tr[data-row-id]').first()).toBeVisible();
  await notice.getByRole('button', { name: 'Dismiss' }).click();
  await expect(notice).toHaveCount(0);
});
