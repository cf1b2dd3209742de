import { expect, renderedIds, signInByApi, test } from './fixtures.ts';

test('fields unknown to the dashboard can be turned on as columns, survive a reload, and show in the detail view', async ({
  page,
}) => {
  await signInByApi(page);
  // The sandbox sends only known fields; a real upstream may add others. Add one to the real answers.
  await page.route('**/api/payments?*', async (route) => {
    const response = await route.fetch();
    const body = (await response.json()) as { data: Array<Record<string, unknown>> };
    for (const row of body.data) row.settlement_batch = `B-${String(row.id).slice(-3)}`;
    await route.fulfill({ response, json: body });
  });
  await page.goto('/');
  await expect(page.locator('tbody tr[data-row-id]').first()).toBeVisible();
  await expect(page.getByRole('columnheader', { name: 'settlement_batch' })).toHaveCount(0);

  await page.getByText('Columns', { exact: true }).click();
  await page.getByRole('checkbox', { name: /settlement_batch/ }).check();
  await page.getByRole('checkbox', { name: 'Reference' }).uncheck();
  await expect(page.getByRole('columnheader', { name: 'settlement_batch' })).toBeVisible();
  await expect(page.locator('tbody [data-column="settlement_batch"]').first()).toHaveText(/^B-\d{3}$/);
  await expect(page.getByRole('columnheader', { name: 'Reference' })).toHaveCount(0);

  await page.reload();
  await expect(page.locator('tbody tr[data-row-id]').first()).toBeVisible();
  await expect(page.getByRole('columnheader', { name: 'settlement_batch' })).toBeVisible();
  await expect(page.getByRole('columnheader', { name: 'Reference' })).toHaveCount(0);

  // The detail view shows every field, the ones the dashboard does not know included.
  const [first] = await renderedIds(page);
  if (!first) throw new Error('no rows drawn');
  await page.getByRole('link', { name: first }).click();
  const drawer = page.getByRole('dialog', { name: `Payment ${first}` });
  await expect(drawer.locator('dd[data-field="settlement_batch"]')).toHaveText(`B-${first.slice(-3)}`);
});
