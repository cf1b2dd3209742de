import { chooseOnlyStatus, expect, signInByApi, test } from './fixtures.ts';

test.beforeEach(async ({ page }) => {
  await signInByApi(page);
});

const scroller = '.grid-scroll';

test('Ctrl-click and middle-click on a row open the payment in a new page, with its drawer open', async ({
  page,
  context,
}) => {
  // two more pages to start, each with its own first view
  test.slow();
  await page.goto('/?company=acme-eu&status=COMPLETED');
  const rows = page.locator('tbody tr[data-row-id]');
  await expect(rows.nth(2)).toBeVisible({ timeout: 30_000 });
  const ids = await rows.evaluateAll((all) => all.map((row) => row.getAttribute('data-row-id') ?? ''));
  const clicks: Array<[number, { modifiers?: Array<'ControlOrMeta'>; button?: 'middle' }]> = [
    [0, { modifiers: ['ControlOrMeta'] }],
    [1, { button: 'middle' }],
  ];
  for (const [index, click] of clicks) {
    const opened = context.waitForEvent('page');
    await page.locator(`[data-row-link="${index}"]`).click(click);
    const tab = await opened;
    await tab.waitForLoadState();
    expect(tab.url()).toMatch(new RegExp(`/payments/${ids[index]}\\?company=acme-eu&status=COMPLETED$`));
    await expect(tab.getByRole('dialog', { name: `Payment ${ids[index]}` })).toBeVisible({ timeout: 30_000 });
    await expect(tab).toHaveTitle(new RegExp(`^${ids[index]} · Completed · `));
    await tab.close();
  }
  // the page clicked in stays as it was: no drawer, same address
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page).toHaveURL(/\/\?company=acme-eu&status=COMPLETED$/);
});

test('Back after three filter changes and a scroll brings back each view and where its list was', async ({
  page,
}) => {
  // four views, each loaded, scrolled, and shown again
  test.slow();
  await page.goto('/?limit=100');
  const box = page.locator(scroller);
  const views: Array<{ url: string; top: number; first: string }> = [];
  // scrolls the list of the view shown, and notes where it stands and the first row in view
  const scrollAndNote = async (top: number) => {
    // the first rows of each view, on a machine that may be busy
    await expect(page.locator('tbody tr[data-row-id]').first()).toBeVisible({ timeout: 30_000 });
    await box.evaluate((element, to) => element.scrollTo(0, to), top);
    await expect.poll(() => box.evaluate((element) => element.scrollTop)).toBe(top);
    views.push({ url: page.url(), top, first: await firstInView() });
  };
  const firstInView = () =>
    box.evaluate((element) => {
      const edge = element.getBoundingClientRect().top + 40;
      const row = [...element.querySelectorAll('tbody tr[data-row-id]')].find(
        (candidate) => candidate.getBoundingClientRect().bottom > edge,
      );
      return row?.getAttribute('aria-rowindex') ?? '';
    });

  await scrollAndNote(1500);
  await chooseOnlyStatus(page, 'COMPLETED');
  await expect(page).toHaveURL(/status=COMPLETED/);
  await scrollAndNote(900);
  await chooseOnlyStatus(page, 'FAILED');
  await expect(page).toHaveURL(/status=FAILED/);
  await scrollAndNote(600);
  await page.getByRole('combobox', { name: 'Page size' }).selectOption('25');
  await expect(page).toHaveURL(/limit=25/);
  await expect(page.locator('tbody tr[data-row-id]').first()).toBeVisible({ timeout: 30_000 });
  expect(views.map((view) => view.url)).toHaveLength(3);

  for (const view of views.reverse()) {
    await page.goBack();
    await expect(page).toHaveURL(view.url);
    await expect.poll(() => box.evaluate((element) => element.scrollTop)).toBe(view.top);
    await expect.poll(firstInView).toBe(view.first);
  }
});

test('an unknown address says the page is not found, with a link to the payments', async ({ page }) => {
  await page.goto('/nothing');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await expect(page).toHaveTitle(/^Page not found · Payments/);
  const back = page.getByRole('link', { name: 'Go to the payments' });
  await expect(back).toHaveAttribute('href', '/');
  await back.click();
  await expect(page.locator('tbody tr[data-row-id]').first()).toBeVisible();
});

test("a loader that throws (a config the app cannot read) shows the route's error, not a blank page", async ({
  page,
}) => {
  let broken = true;
  await page.route('**/api/config', async (route) => {
    if (!broken) return route.continue();
    await route.fulfill({ status: 200, contentType: 'application/json', body: '{"environment":42}' });
  });
  await page.goto('/?status=FAILED');
  const error = page.getByRole('alert');
  await expect(error.getByRole('heading', { name: 'The dashboard could not start' })).toBeVisible();
  await expect(error).toContainText(/\w/);
  await expect(error.getByRole('link', { name: 'Back to the payments' })).toHaveAttribute('href', '/');
  broken = false;
  await error.getByRole('button', { name: 'Retry' }).click();
  await expect(page.locator('tbody tr[data-row-id]').first()).toBeVisible();
  await expect(page).toHaveTitle(/^Failed · .* · Payments/);
});
