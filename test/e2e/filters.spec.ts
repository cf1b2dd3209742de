import type { Page } from '@playwright/test';
import {
  chooseOnlyStatus,
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

/** Waits for the list to settle and returns the first rows it shows. */
async function firstRows(page: Page, count = 10): Promise<string[]> {
  await expect(page.locator('tbody tr[data-row-id]').first()).toBeVisible();
  await expect(page.getByTestId('list-status')).not.toContainText('Loading');
  return (await renderedIds(page)).slice(0, count);
}

async function expectSandboxFirst(page: Page, query: Record<string, string>, company?: string) {
  const expected = (await sandboxPage({ limit: '20', ...query }, company)).data.slice(0, 10).map((p) => p.id);
  expect(expected.length).toBeGreaterThan(0);
  // Polled: a navigation is a transition, so the URL may name the new view a frame before the list draws it.
  await expect.poll(() => firstRows(page)).toEqual(expected);
}

test('the status filter goes into the URL and shows only payments of that status', async ({ page }) => {
  await page.goto('/');
  await firstRows(page);
  await page.locator('.status-choice .menu-button__button').click();
  await page.getByRole('checkbox', { name: 'FAILED' }).check();
  await expect(page).toHaveURL(/[?&]status=FAILED/);
  await expectSandboxFirst(page, { status: 'FAILED' });
  await expect(page.locator('tbody [data-column="status"]').filter({ hasNotText: 'FAILED' })).toHaveCount(0);
});

test('a status the dashboard does not know can be chosen once a page holds it; from a link it is named', async ({
  page,
}) => {
  test.slow();
  // The spec's status list is open: a real upstream may send a status the dashboard was not built with.
  await page.route('**/api/payments?*', async (route) => {
    const response = await route.fetch();
    const body = (await response.json()) as { data: Array<{ status: string }> };
    if (body.data[0]) body.data[0].status = 'SETTLED';
    await route.fulfill({ response, json: body });
  });
  await page.goto('/');
  await firstRows(page);
  await chooseOnlyStatus(page, 'SETTLED');
  await expect(page).toHaveURL(/[?&]status=SETTLED/);
  // The view of that status loads (the sandbox has no such payment), and the choice stays.
  await expect(page.getByTestId('list-status')).toHaveText('0 payments loaded · end of list');
  await expect(page.locator('.status-choice .menu-button__button')).toHaveText('SETTLED');

  await page.unrouteAll({ behavior: 'wait' });
  await page.goto('/?status=ON_HOLD');
  await expect(page.locator('.status-choice .menu-button__button')).toHaveText('ON_HOLD');
  await expect(page.getByTestId('list-status')).toHaveText('0 payments loaded · end of list');
  // not as if there were none: the notice names it, with the way to the view without it
  const unknown = page.getByTestId('unknown-statuses');
  await expect(unknown).toContainText('Status “ON_HOLD” from the address is not known to this dashboard');
  await unknown.getByRole('link', { name: 'Show the view without it' }).click();
  await expect(page).toHaveURL(/\/$/);
  await firstRows(page);
});

test('the date-from filter takes seconds, says its zone, and shows only payments from then on', async ({
  page,
}) => {
  const dateFrom = '2026-05-28T12:30:15';
  const expected = await sandboxIds({ date_from: dateFrom }, 'acme-us');
  expect(expected.length).toBeGreaterThan(0);
  expect(expected.length).toBeLessThan(20);
  await page.goto('/?company=acme-us');
  await firstRows(page);
  await expect(page.getByText('Created from (UTC)')).toBeVisible();
  const input = page.getByLabel(/Created from/);
  await input.fill(dateFrom);
  await input.press('Enter');
  await expect(page).toHaveURL(/[?&]date_from=2026-05-28T12:30:15/);
  await expect(page.getByTestId('list-status')).toContainText('end of list');
  expect(await renderedIds(page)).toEqual(expected);
  const created = await page.locator('tbody [data-column="created_at"]').allTextContents();
  for (const text of created) expect(text >= '2026-05-28 12:30:15').toBe(true);
});

test('the page size goes into the URL and into every request of the new session', async ({ page }) => {
  await page.goto('/');
  await firstRows(page);
  // the first session's own next page, asked for as its rows are drawn, is in before its requests stop counting
  await expect(page.getByTestId('list-status')).toContainText('more available, scroll to load');
  const limits: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/payments?')) limits.push(new URL(r.url()).searchParams.get('limit') ?? '');
  });
  await page.getByRole('combobox', { name: 'Page size' }).selectOption('25');
  await expect(page).toHaveURL(/[?&]limit=25/);
  await firstRows(page);
  expect(limits.length).toBeGreaterThan(0);
  expect(new Set(limits)).toEqual(new Set(['25']));
  const loaded = Number((await page.getByTestId('list-status').textContent())?.match(/^\d+/)?.[0]);
  expect(loaded % 25).toBe(0);
});

test('the company switch sets the company in the URL and shows only its payments; Back restores', async ({
  page,
}) => {
  await page.goto('/?status=COMPLETED');
  await firstRows(page);
  const before = page.url();
  await page.getByRole('button', { name: /^Company / }).click();
  const search = page.getByRole('combobox', { name: 'Search companies' });
  await expect(search).toBeFocused();
  await search.fill('France');
  await expect(page.getByRole('treeitem')).toHaveText([/Acme Holding/, /Acme Europe/, /Acme France/]);
  await screenshot(page, 'company-switcher');
  await search.press('Enter');
  await expect(page).toHaveURL(/[?&]company=acme-eu-fr/);
  await expect(page).toHaveURL(/[?&]status=COMPLETED/);
  await expectSandboxFirst(page, { status: 'COMPLETED' }, 'acme-eu-fr');
  await expect(
    page.locator('tbody [data-column="company_id"]').filter({ hasNotText: 'acme-eu-fr' }),
  ).toHaveCount(0);

  await page.goBack();
  await expect(page).toHaveURL(before);
  await expect(page.getByRole('button', { name: /^Company / })).toContainText('Acme Holding');
  await expectSandboxFirst(page, { status: 'COMPLETED' });
});

test('a company the user may not see shows a clear message, and the switcher still works', async ({
  page,
}) => {
  const response = await fetch(`http://127.0.0.1:${stack.sandboxPort}/_sandbox/companies`, {
    headers: {
      Authorization: `Basic ${btoa(`${stack.otherCredentials.id}:${stack.otherCredentials.secret}`)}`,
    },
  });
  const foreign = ((await response.json()) as Array<{ id: string }>)[0]?.id;
  if (!foreign) throw new Error('the other tenant has no company');
  await page.goto(`/?company=${foreign}`);
  // the list names the company, once (the summary says nothing of it)
  await expect(page.getByRole('alert')).toHaveText(
    `You do not have access to the company “${foreign}”. Choose another company in the switcher.`,
  );
  await expect(page.locator('tbody tr[data-row-id]')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Retry' })).toHaveCount(0);
  await screenshot(page, 'forbidden-company');
  await page.getByRole('button', { name: /^Company / }).click();
  await page.getByRole('combobox', { name: 'Search companies' }).fill('Holding');
  await page.getByRole('combobox', { name: 'Search companies' }).press('Enter');
  await expect(page).toHaveURL(/[?&]company=acme(&|$)/);
  await expectSandboxFirst(page, {});
});

test('clear filters returns to the unfiltered list of the same company', async ({ page }) => {
  await page.goto('/?company=acme-us&status=FAILED&date_from=2026-01-01T00:00:00&limit=25');
  await firstRows(page);
  await page.getByRole('button', { name: 'Clear filters' }).first().click();
  await expect(page).toHaveURL(/\/\?company=acme-us$/);
  await expectSandboxFirst(page, {}, 'acme-us');
});
