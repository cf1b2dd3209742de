import { expect, renderedIds, screenshot, signInByApi, test } from './fixtures.ts';
import { stack } from './stack.ts';

test('sign in brings the user to the URL they asked for; a wrong password says so', async ({ page }) => {
  await page.goto('/?status=FAILED');
  await expect(page).toHaveURL(/\/sign-in\?next=%2F%3Fstatus%3DFAILED$/);
  await expect(page.getByRole('heading', { name: 'Sign in to Payments' })).toBeVisible();
  await screenshot(page, 'sign-in');
  await page.getByLabel('Username').fill(stack.username);
  await page.getByLabel('Password').fill('not-the-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toHaveText('Wrong username or password.');
  await page.getByLabel('Password').fill(stack.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/\?status=FAILED$/);
  await expect(page.locator('tbody tr[data-row-id]').first()).toBeVisible();
});

test('after sign-out, Back shows no payment data', async ({ page }) => {
  await signInByApi(page);
  await page.goto('/?company=acme-eu');
  await expect(page.locator('tbody tr[data-row-id]').first()).toBeVisible();
  const ids = await renderedIds(page);
  await page.getByRole('button', { name: `Sign out ${stack.username}`, exact: true }).click();
  await expect(page).toHaveURL(/\/sign-in\?reason=signed-out$/);
  await expect(page.getByText('You are signed out.')).toBeVisible();

  await page.goBack();
  await expect(page).toHaveURL(/\/sign-in/);
  await expect(page.getByRole('heading', { name: 'Sign in to Payments' })).toBeVisible();
  await expect(page.locator('tbody tr')).toHaveCount(0);
  const text = (await page.locator('body').textContent()) ?? '';
  for (const id of ids.slice(0, 5)) expect(text).not.toContain(id);
  // and the server agrees the session is gone
  const session = await page.request.get('/api/session', { headers: { 'X-CSRF': '1' } });
  expect(session.status()).toBe(401);
});

test('a session that expires sends the user to sign-in and back to the same view', async ({
  page,
  context,
}) => {
  await signInByApi(page);
  await page.goto('/?company=acme-us&status=AWAITING');
  await expect(page.locator('tbody tr[data-row-id]').first()).toBeVisible();
  // the figures are asked for after the first rows: the session ends once the view has all it asked for, not
  // while the summary is on its way (its 401 would end it before the user picks)
  await expect(page.getByTestId('summary-count')).toBeVisible({ timeout: 20_000 });
  await context.clearCookies();
  await page.locator('.status-choice .menu-button__button').click();
  await page.getByRole('checkbox', { name: 'FAILED' }).check();
  await expect(page).toHaveURL(
    /\/sign-in\?next=%2F%3Fcompany%3Dacme-us%26status%3DAWAITING%2CFAILED&reason=expired$/,
  );
  await expect(page.getByText('Your session has ended')).toBeVisible();
  await page.getByLabel('Username').fill(stack.username);
  await page.getByLabel('Password').fill(stack.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/\?company=acme-us&status=AWAITING,FAILED$/);
  await expect(page.locator('tbody [data-column="status"]').first()).toHaveText(/^(AWAITING|FAILED)$/);
});
