import { expect, renderedIds, type SandboxPayment, sandboxPage, signInByApi, test } from './fixtures.ts';

test.beforeEach(async ({ page }) => {
  await signInByApi(page);
});

const count = new Intl.NumberFormat('en-US');

/** Every payment of a company as the sandbox API lists them, walked page by page. */
async function sandboxAll(company: string, query: Record<string, string> = {}): Promise<SandboxPayment[]> {
  const rows: SandboxPayment[] = [];
  let cursor: string | null = null;
  do {
    const page = await sandboxPage({ ...query, limit: '100', ...(cursor ? { cursor } : {}) }, company);
    rows.push(...page.data);
    cursor = page.next_cursor;
  } while (cursor);
  return rows;
}

function perStatus(rows: readonly SandboxPayment[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const row of rows) counts.set(row.status, (counts.get(row.status) ?? 0) + 1);
  return counts;
}

test('the summary counts what the sandbox holds, in all and per status, and the footer says of how many', async ({
  page,
}) => {
  const rows = await sandboxAll('acme-jp');
  expect(rows.length).toBeGreaterThan(100);
  await page.goto('/?company=acme-jp');
  const summary = page.getByRole('region', { name: 'Summary' });
  await expect(summary.getByTestId('summary-count')).toHaveText(`${count.format(rows.length)} payments`, {
    timeout: 20_000,
  });
  const statuses = perStatus(rows);
  expect(statuses.size).toBeGreaterThan(1);
  const shown = await summary
    .getByRole('list', { name: 'Payments per status' })
    .getByRole('link')
    .allTextContents();
  expect(shown.map((text) => text.replace(/\s+/g, ' ').trim()).sort()).toEqual(
    [...statuses].map(([status, n]) => `${status} ${count.format(n)}`).sort(),
  );
  await expect(page.getByTestId('list-status')).toContainText(
    new RegExp(`^[\\d,]+ payments loaded of ${count.format(rows.length)} · more available`),
  );
});

test('a count per status filters the list by that status, and the figures follow', async ({ page }) => {
  const failed = await sandboxAll('acme-jp', { status: 'FAILED' });
  expect(failed.length).toBeGreaterThan(0);
  await page.goto('/?company=acme-jp');
  const summary = page.getByRole('region', { name: 'Summary' });
  const link = summary.getByRole('link', { name: `FAILED ${count.format(failed.length)}` });
  await expect(link).toBeVisible({ timeout: 20_000 });
  await link.click();
  await expect(page).toHaveURL(/[?&]status=FAILED/);
  await expect(page.locator('.status-choice .menu-button__button')).toHaveText('FAILED');
  await expect(summary.getByTestId('summary-count')).toHaveText(`${count.format(failed.length)} payments`, {
    timeout: 20_000,
  });
  await expect(link).toHaveAttribute('aria-current', 'true');
  await expect(page.locator('tbody tr[data-row-id]').first()).toBeVisible();
  const ids = await renderedIds(page);
  expect(ids.slice(0, 10)).toEqual(failed.slice(0, Math.min(10, ids.length)).map((p) => p.id));
  await expect(page.locator('tbody [data-column="status"]').filter({ hasNotText: 'FAILED' })).toHaveCount(0);
});
