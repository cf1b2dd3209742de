import { expect, renderedIds, signInByApi, test } from './fixtures.ts';

const MAY = 'date_from=2026-05-01T00:00:00&date_to=2026-05-31T23:59:59';
const api = { 'X-CSRF': '1', 'X-Company-Id': 'acme-eu' };

test.beforeEach(async ({ page }) => {
  await signInByApi(page);
});

/** The first ids of the BFF's own answer for the month in `sort`: the order the property tests prove. */
async function firstIds(page: import('@playwright/test').Page, sort: string, count: number) {
  const response = await page.request.get(`/api/payments?${MAY}&sort=${sort}&limit=${count}`, {
    headers: api,
  });
  expect(response.status()).toBe(200);
  const body = (await response.json()) as { data: { id: string | number; amount: number }[] };
  return body.data.map((row) => String(row.id));
}

test('sort a month by amount from the header, reverse it, and Back restores the previous sort', async ({
  page,
}) => {
  await page.goto(`/?company=acme-eu&${MAY}`);
  const rows = page.locator('tbody tr[data-row-id]');
  await expect(rows.first()).toBeVisible({ timeout: 20_000 });
  const amountHead = page.locator('th[data-column="amount"]');
  await expect(amountHead).not.toHaveAttribute('aria-sort', /./);

  // The first press sorts by amount (a walk of the month, sorted by the BFF): the address and the header say so.
  await amountHead.locator('.column-head__sort').click();
  await expect(page).toHaveURL(/sort=amount(:|%3A)(asc|desc)/);
  const first = /sort=amount(?::|%3A)(asc|desc)/.exec(page.url())?.[1] as 'asc' | 'desc';
  await expect(amountHead).toHaveAttribute('aria-sort', first === 'asc' ? 'ascending' : 'descending');
  const firstOrder = await firstIds(page, `amount:${first}`, 5);
  await expect
    .poll(async () => (await renderedIds(page)).slice(0, 5), { timeout: 30_000 })
    .toEqual(firstOrder);

  // The second press reverses it.
  const second = first === 'asc' ? 'desc' : 'asc';
  await amountHead.locator('.column-head__sort').click();
  await expect(page).toHaveURL(new RegExp(`sort=amount(:|%3A)${second}`));
  await expect(amountHead).toHaveAttribute('aria-sort', second === 'asc' ? 'ascending' : 'descending');
  const secondOrder = await firstIds(page, `amount:${second}`, 5);
  expect(secondOrder).not.toEqual(firstOrder);
  await expect
    .poll(async () => (await renderedIds(page)).slice(0, 5), { timeout: 30_000 })
    .toEqual(secondOrder);

  // Back: the previous sort, its header and its rows.
  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`sort=amount(:|%3A)${first}`));
  await expect(amountHead).toHaveAttribute('aria-sort', first === 'asc' ? 'ascending' : 'descending');
  await expect
    .poll(async () => (await renderedIds(page)).slice(0, 5), { timeout: 30_000 })
    .toEqual(firstOrder);
});
