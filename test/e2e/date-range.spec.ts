import type { Page } from '@playwright/test';
import {
  expect,
  renderedIds,
  renderedRows,
  type SandboxPayment,
  sandboxPage,
  signInByApi,
  test,
} from './fixtures.ts';

test.beforeEach(async ({ page }) => {
  await signInByApi(page);
});

/** Every payment of a company from `from` on, newest first, as the sandbox itself lists them. */
async function sandboxSince(from: string, company: string): Promise<SandboxPayment[]> {
  const rows: SandboxPayment[] = [];
  let cursor: string | null = null;
  do {
    const page = await sandboxPage({ date_from: from, limit: '100', ...(cursor ? { cursor } : {}) }, company);
    rows.push(...page.data);
    cursor = page.next_cursor;
  } while (cursor);
  return rows;
}

/** The ids of a company's payments from `from` to `to` inclusive (the stack runs in UTC, as the sandbox). */
async function sandboxRange(from: string, to: string, company: string): Promise<string[]> {
  return (await sandboxSince(from, company)).filter((p) => p.created_at <= to).map((p) => p.id);
}

/** A parameter of the page's address, however the router encodes it. */
function searchParam(page: Page, name: string): string | null {
  return new URL(page.url()).searchParams.get(name);
}

/** The range the page's address holds: [date_from, date_to]. */
function shownRange(page: Page): Array<string | null> {
  return [searchParam(page, 'date_from'), searchParam(page, 'date_to')];
}

/** Every row of the list, in order: the table is scrolled to its end, each row taken by its position. */
async function shownToTheEnd(page: Page): Promise<string[]> {
  await expect(page.getByTestId('list-status')).toContainText('end of list');
  const scroller = page.locator('.grid-scroll');
  await scroller.evaluate((el) => el.scrollTo(0, 0));
  const byPosition = new Map<number, string>();
  for (let step = 0; step < 50; step++) {
    for (const row of await renderedRows(page)) byPosition.set(row.index, row.id);
    if (await scroller.evaluate((el) => el.scrollTop + el.clientHeight >= el.scrollHeight - 2)) break;
    await scroller.evaluate((el) => el.scrollBy(0, el.clientHeight * 0.8));
    await page.waitForTimeout(50);
  }
  const positions = [...byPosition.keys()].sort((a, b) => a - b);
  expect(positions).toEqual(positions.map((_, i) => i + 2));
  return positions.map((position) => byPosition.get(position) ?? '');
}

test('typed dates apply, a date alone meaning its whole day at either end; what cannot be read is said beside the field', async ({
  page,
}) => {
  const expected = await sandboxRange('2026-05-28T00:00:00', '2026-05-28T23:59:59', 'acme-us');
  expect(expected.length).toBeGreaterThan(0);
  expect(expected.length).toBeLessThan(30);
  await page.goto('/?company=acme-us');
  await expect(page.locator('tbody tr[data-row-id]').first()).toBeVisible();
  const from = page.getByLabel(/Created from/);
  const to = page.getByLabel(/Created to/);
  await from.fill('2026-05-28');
  await from.press('Enter');
  await expect.poll(() => searchParam(page, 'date_from')).toBe('2026-05-28T00:00:00');
  await to.fill('2026-05-28');
  await to.press('Enter');
  await expect.poll(() => searchParam(page, 'date_to')).toBe('2026-05-28T23:59:59');
  expect(await shownToTheEnd(page)).toEqual(expected);

  // a typo: reported at the field, kept there, and the list stays as it was
  const before = page.url();
  await to.fill('2026-05-3');
  await to.press('Enter');
  await expect(to).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByRole('alert').filter({ hasText: 'Not applied' })).toBeVisible();
  await expect(to).toHaveValue('2026-05-3');
  expect(page.url()).toBe(before);
  expect(await renderedIds(page)).toEqual(expected);

  // a time to the minute, in the browser's own datetime-local form
  await from.fill('2026-05-28T12:30');
  await from.press('Enter');
  await expect.poll(() => searchParam(page, 'date_from')).toBe('2026-05-28T12:30:00');
  const afternoon = await sandboxRange('2026-05-28T12:30:00', '2026-05-28T23:59:59', 'acme-us');
  expect(await shownToTheEnd(page)).toEqual(afternoon);

  // reload keeps the range, shown as it was typed
  await page.reload();
  await expect(page.getByLabel(/Created from/)).toHaveValue('2026-05-28 12:30:00');
  await expect(page.getByLabel(/Created to/)).toHaveValue('2026-05-28');
  expect(await shownToTheEnd(page)).toEqual(afternoon);
});

test('presets set both ends, counted in the configured zone; Back and reload restore them', async ({
  page,
}) => {
  // "now" inside the sandbox's seeded period
  await page.clock.setFixedTime(new Date('2026-05-20T10:00:00Z'));
  const lastWeek = await sandboxRange('2026-05-14T00:00:00', '2026-05-20T23:59:59', 'acme-jp');
  const april = await sandboxRange('2026-04-01T00:00:00', '2026-04-30T23:59:59', 'acme-jp');
  expect(lastWeek.length).toBeGreaterThan(0);
  expect(april.length).toBeGreaterThan(lastWeek.length);
  expect(april.length).toBeLessThan(100);
  await page.goto('/?company=acme-jp&limit=100');
  await expect(page.locator('tbody tr[data-row-id]').first()).toBeVisible();

  const range = page.getByRole('combobox', { name: 'Range' });
  await range.selectOption('Last 7 days');
  await expect.poll(() => shownRange(page)).toEqual(['2026-05-14T00:00:00', '2026-05-20T23:59:59']);
  await expect(range).toHaveValue('Last 7 days');
  expect(await shownToTheEnd(page)).toEqual(lastWeek);

  await range.selectOption('Last month');
  await expect.poll(() => shownRange(page)).toEqual(['2026-04-01T00:00:00', '2026-04-30T23:59:59']);
  await expect(page.getByLabel(/Created from/)).toHaveValue('2026-04-01');
  await expect(page.getByLabel(/Created to/)).toHaveValue('2026-04-30');
  expect(await shownToTheEnd(page)).toEqual(april);

  await page.goBack();
  await expect.poll(() => shownRange(page)).toEqual(['2026-05-14T00:00:00', '2026-05-20T23:59:59']);
  await expect(page.getByLabel(/Created from/)).toHaveValue('2026-05-14');
  await expect(range).toHaveValue('Last 7 days');
  expect(await shownToTheEnd(page)).toEqual(lastWeek);
  await page.reload();
  await expect(page.getByLabel(/Created to/)).toHaveValue('2026-05-20');
  expect(await shownToTheEnd(page)).toEqual(lastWeek);
});

test('a To before From is said once at its field, and a range too wide to list shows the reason the BFF gives', async ({
  page,
}) => {
  const asked: string[] = [];
  page.on('request', (request) => {
    if (/\/api\/payments(\/summary|\/search)?\?/.test(request.url())) asked.push(request.url());
  });
  await page.goto('/?company=acme-jp&date_from=2026-05-02T00:00:00&date_to=2026-05-01T23:59:59');
  // one sentence at the To field; no list, no count is asked for a range that cannot hold a payment
  await expect(page.getByRole('alert')).toHaveText(
    '“To” is before “From”: no payment can be in this range. Change one of the dates.',
  );
  await expect(page.getByLabel(/Created to/)).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText('No payments match these filters.')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Summary' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Retry' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Export/ })).toBeDisabled();
  expect(asked).toEqual([]);

  // The BFF gives up after thousands of pages newer than date_to; the sandbox is too small to make it, so the
  // answer is the BFF's own, as its tests pin it.
  const detail = 'more than 2000 pages of payments are newer than date_to; set a date_from closer to it';
  await page.route('**/api/payments?*', (route) =>
    route.fulfill({
      status: 422,
      contentType: 'application/problem+json',
      body: JSON.stringify({
        type: 'urn:payments-dashboard:problem:range_too_wide',
        title: 'Date range too wide',
        status: 422,
        detail,
        code: 'range_too_wide',
      }),
    }),
  );
  await page.goto('/?company=acme-jp&date_to=2024-07-01T23:59:59');
  await expect(page.getByRole('alert')).toHaveText(`The date range is too wide to list: ${detail}`);
  await expect(page.getByRole('button', { name: 'Retry' })).toHaveCount(0);
});
