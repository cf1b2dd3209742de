import {
  answerUnavailable,
  companiesOf,
  expect,
  renderedIds,
  sandboxIds,
  sandboxPage,
  screenshot,
  signInByApi,
  test,
} from './fixtures.ts';
import { stack } from './stack.ts';

test.beforeEach(async ({ page }) => {
  await signInByApi(page);
});

test('a row opens its drawer with every field; Escape closes it and the URL follows', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const first = (await sandboxPage({ limit: '5', status: 'COMPLETED' })).data[0];
  if (!first) throw new Error('no completed payment in the sandbox');
  await page.goto('/?status=COMPLETED');
  await page.getByRole('link', { name: first.id }).click();
  await expect(page).toHaveURL(new RegExp(`/payments/${first.id}\\?status=COMPLETED$`));
  const drawer = page.getByRole('dialog', { name: `Payment ${first.id}` });
  await expect(drawer).toBeVisible();
  for (const field of ['id', 'company_id', 'status', 'amount', 'currency', 'created_at', 'description']) {
    await expect(drawer.locator(`dd[data-field="${field}"]`)).toHaveCount(1);
  }
  // money as money; what the API sent only under "As sent by the API"
  const money = new Intl.NumberFormat('en-US', { style: 'currency', currency: first.currency }).format(
    first.amount / 10 ** (first.currency === 'JPY' ? 0 : 2),
  );
  await expect(drawer.locator('dd[data-field="amount"]')).toHaveText(money);
  await expect(drawer.getByTestId('drawer-amount')).toHaveText(money);
  await expect(drawer.getByTestId('amount-as-sent')).toBeHidden();
  await drawer.getByText('As sent by the API').click();
  await expect(drawer.getByTestId('amount-as-sent')).toHaveText(`amount: ${first.amount} (minor units)`);
  await expect(drawer.locator('dd[data-field="created_at"]')).toHaveText(
    `${first.created_at.replace('T', ' ')} UTC`,
  );
  await drawer.getByRole('button', { name: 'Copy ID' }).click();
  await expect(drawer.getByText('ID copied')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(first.id);
  await screenshot(page, 'detail-drawer');

  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();
  await expect(page).toHaveURL(/\/\?status=COMPLETED$/);
  await expect(page.getByRole('link', { name: first.id })).toBeFocused();
});

test('a deep link opens the drawer on a fresh page, paging through the view to find the payment', async ({
  page,
}) => {
  const ids = await sandboxIds({}, 'acme-eu', 260);
  const deep = ids[250];
  if (!deep) throw new Error('acme-eu has too few payments for this test');
  await page.goto(`/payments/${deep}?company=acme-eu&limit=100`);
  const drawer = page.getByRole('dialog', { name: `Payment ${deep}` });
  await expect(drawer.locator('dd[data-field="id"]')).toHaveText(deep);
  await expect(drawer.locator('dd[data-field="company_id"]')).toHaveText('acme-eu');
  await page.getByRole('button', { name: /^Close/ }).click();
  await expect(page).toHaveURL(/\/\?company=acme-eu&limit=100$/);
  expect((await renderedIds(page)).length).toBeGreaterThan(0);
});

test('a deep link to a payment outside the view says so instead of showing something else', async ({
  page,
}) => {
  const companies = (await companiesOf(stack.sandboxCredentials)).length;
  await page.goto('/payments/pay_does_not_exist?company=acme-jp&status=FAILED');
  const drawer = page.getByRole('dialog', { name: 'Payment pay_does_not_exist' });
  // not in the view, so looked for in every company the user may see, and in none of them
  await expect(drawer.getByTestId('payment-not-found')).toContainText(
    `Payment pay_does_not_exist is in none of the companies you may see. Looked in ${companies} companies,`,
    { timeout: 20_000 },
  );
  await expect(drawer.locator('dd')).toHaveCount(0);
});

test('a deep link whose view fails to load says so in the drawer, and its Retry finds the payment', async ({
  page,
}) => {
  const first = (await sandboxPage({ limit: '5' })).data[0];
  if (!first) throw new Error('the sandbox has no payments');
  // Fails until Retry: the request made before the app draws, and the list's own where it asks again (on a busy
  // machine the first answer may come after the list has mounted, which then waits for it instead).
  let failing = true;
  await page.route('**/api/payments?*', async (route) => {
    if (!failing) return route.continue();
    await answerUnavailable(route);
  });
  await page.goto(`/payments/${first.id}`);
  const drawer = page.getByRole('dialog', { name: `Payment ${first.id}` });
  // The failure, with a Retry the modal drawer does not hide, rather than "not among the 0 payments loaded".
  await expect(drawer.getByRole('alert')).toContainText('The payments service is not answering right now');
  failing = false;
  await drawer.getByRole('button', { name: 'Retry' }).click();
  await expect(drawer.locator('dd[data-field="id"]')).toHaveText(first.id);
});

test('the drawer steps through the loaded payments, copies its link, and j and k step too', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto('/?company=acme-eu&status=COMPLETED');
  await expect(page.locator('tbody tr[data-row-id]').nth(3)).toBeVisible();
  const ids = await renderedIds(page);
  expect(ids.length).toBeGreaterThan(3);
  await page.locator('[data-row-link="1"]').click();
  const drawer = page.getByRole('dialog');
  await expect(drawer.locator('dd[data-field="id"]')).toHaveText(ids[1] ?? '');
  await expect(drawer).toContainText('2 of');

  await drawer.getByRole('link', { name: 'Next' }).click();
  await expect(drawer.locator('dd[data-field="id"]')).toHaveText(ids[2] ?? '');
  await expect(page).toHaveURL(new RegExp(`/payments/${ids[2]}\\?company=acme-eu&status=COMPLETED$`));
  await page.keyboard.press('j');
  await expect(drawer.locator('dd[data-field="id"]')).toHaveText(ids[3] ?? '');
  await page.keyboard.press('k');
  await page.keyboard.press('k');
  await page.keyboard.press('k');
  await expect(drawer.locator('dd[data-field="id"]')).toHaveText(ids[0] ?? '');
  await expect(drawer.getByRole('button', { name: 'Previous' })).toBeDisabled();

  await drawer.getByRole('button', { name: 'Copy link' }).click();
  await expect(drawer.getByText('Link copied')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
    `${new URL(page.url()).origin}/payments/${ids[0]}?company=acme-eu&status=COMPLETED`,
  );
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();
  await expect(page.locator(`tr[data-row-id="${ids[0]}"] a`)).toBeFocused();
});

test("after a reload with the drawer open, closing it gives focus to that payment's row, pages down", async ({
  page,
}) => {
  const ids = await sandboxIds({}, 'acme-eu', 260);
  const deep = ids[230];
  if (!deep) throw new Error('acme-eu has too few payments for this test');
  await page.goto(`/?company=acme-eu&limit=100`);
  await expect(page.locator('tbody tr[data-row-id]').first()).toBeVisible();
  await page.goto(`/payments/${deep}?company=acme-eu&limit=100`);
  await page.reload();
  const drawer = page.getByRole('dialog', { name: `Payment ${deep}` });
  await expect(drawer.locator('dd[data-field="id"]')).toHaveText(deep);
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();
  const row = page.locator(`tr[data-row-id="${deep}"] a`);
  await expect(row).toBeFocused();
  await expect(row).toBeInViewport();
  await page.keyboard.press('ArrowDown');
  await expect(page.locator(`tr[data-row-id="${ids[231]}"] a`)).toBeFocused();
});
