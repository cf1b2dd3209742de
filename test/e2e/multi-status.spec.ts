import type { Page } from '@playwright/test';
import { expect, type SandboxPayment, sandboxPage, signInByApi, test } from './fixtures.ts';
import { allShownRows, majorText, thousandths } from './sandbox-oracle.ts';

test.beforeEach(async ({ page }) => {
  await signInByApi(page);
});

const COMPANY = 'acme-eu';
const FROM = '2026-05-01T00:00:00';
const TO = '2026-05-31T23:59:59';
const MIN = '50';
const MAX = '2000';

type Row = SandboxPayment & { counterparty: string | null };

/** Every row of one company and status from `FROM` on, walked through the sandbox's own API (not the BFF's). */
async function sandboxRows(company: string, query: Record<string, string>): Promise<Row[]> {
  const rows: Row[] = [];
  let cursor: string | null = null;
  do {
    const page = await sandboxPage({ ...query, limit: '100', ...(cursor ? { cursor } : {}) }, company);
    rows.push(...(page.data as Row[]));
    cursor = page.next_cursor;
  } while (cursor);
  return rows;
}

/** What the view AWAITING + FAILED, in May, from MIN to MAX in each row's currency holds: the sandbox's truth. */
async function expectedIds(): Promise<string[]> {
  const rows = [
    ...(await sandboxRows(COMPANY, { status: 'AWAITING', date_from: FROM })),
    ...(await sandboxRows(COMPANY, { status: 'FAILED', date_from: FROM })),
  ];
  return rows
    .filter((row) => row.created_at <= TO)
    .filter((row) => {
      const amount = thousandths(majorText(row.amount, row.currency));
      return amount >= thousandths(MIN) && amount <= thousandths(MAX);
    })
    .map((row) => row.id)
    .sort();
}

async function tickStatus(page: Page, status: string): Promise<void> {
  const button = page.locator('.status-choice .menu-button__button');
  if ((await button.getAttribute('aria-expanded')) !== 'true') await button.click();
  await page.getByRole('checkbox', { name: status }).check();
  await expect(page).toHaveURL(new RegExp(`[?&]status=[A-Z,]*${status}`));
}

test('AWAITING + FAILED with an amount range: every row matches, the count is the truth, the URL round-trips, Back restores', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const expected = await expectedIds();
  expect(expected.length).toBeGreaterThan(0);

  await page.goto(`/?company=${COMPANY}&date_from=${FROM}&date_to=${TO}`);
  await expect(page.locator('tbody tr[data-row-id]').first()).toBeVisible({ timeout: 30_000 });
  await tickStatus(page, 'AWAITING');
  await tickStatus(page, 'FAILED');
  await expect(page).toHaveURL(/[?&]status=AWAITING,FAILED(&|$)/);
  await page.keyboard.press('Escape');
  await expect(page.locator('.status-choice .menu-button__button')).toHaveText('AWAITING, FAILED');

  await page.getByRole('textbox', { name: /^Amount from/ }).fill(MIN);
  const to = page.getByRole('textbox', { name: /^Amount to/ });
  await to.fill(MAX);
  await to.press('Enter');
  await expect(page).toHaveURL(new RegExp(`[?&]amount_min=${MIN}&amount_max=${MAX}(&|$)`));
  const filtered = page.url();

  await expect(page.getByTestId('list-status')).toContainText('end of list', { timeout: 30_000 });
  expect((await allShownRows(page)).sort()).toEqual(expected);
  const statuses = await page.locator('tbody [data-column="status"]').allTextContents();
  for (const status of statuses) expect(['AWAITING', 'FAILED']).toContain(status.trim());
  await expect(page.getByTestId('summary-count')).toHaveText(
    `${expected.length} ${expected.length === 1 ? 'payment' : 'payments'}`,
    { timeout: 60_000 },
  );

  // the address alone makes the same view
  await page.goto(filtered);
  await expect(page.locator('.status-choice .menu-button__button')).toHaveText('AWAITING, FAILED');
  await expect(page.getByRole('textbox', { name: /^Amount from/ })).toHaveValue(MIN);
  await expect(page.getByRole('textbox', { name: /^Amount to/ })).toHaveValue(MAX);
  await expect(page.getByTestId('summary-count')).toHaveText(`${expected.length} payments`, {
    timeout: 60_000,
  });

  // Back: the view before the amounts (the same address opened again replaced its entry), then before FAILED
  await page.goBack();
  await expect(page).toHaveURL(/[?&]status=AWAITING,FAILED(&|$)/);
  await expect(page.getByRole('textbox', { name: /^Amount from/ })).toHaveValue('');
  await page.goBack();
  await expect(page).toHaveURL(/[?&]status=AWAITING(&|$)/);
  await expect(page.locator('.status-choice .menu-button__button')).toHaveText('AWAITING');
});

test('a bad amount or a maximum below the minimum is explained beside the fields, and nothing is asked', async ({
  page,
}) => {
  await page.goto(`/?company=${COMPANY}`);
  await expect(page.locator('tbody tr[data-row-id]').first()).toBeVisible({ timeout: 30_000 });
  const asked: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('amount_')) asked.push(request.url());
  });
  await page.getByRole('textbox', { name: /^Amount from/ }).fill('500');
  const to = page.getByRole('textbox', { name: /^Amount to/ });
  await to.fill('100');
  await to.press('Enter');
  await expect(page.getByRole('alert')).toHaveText(
    'Not applied: “Amount to” is below “Amount from”, so no payment could match.',
  );
  await to.fill('1,000');
  await to.press('Enter');
  await expect(page.getByRole('alert')).toContainText('must be a number in major units');
  expect(new URL(page.url()).searchParams.has('amount_min')).toBe(false);
  expect(asked).toEqual([]);
});

test('an address with an unknown status or currency names it, not as if there were no payments', async ({
  page,
}) => {
  await page.goto(`/?company=${COMPANY}&status=FAILED,FOO&currency=EUR,XYZ`);
  const notice = page.getByRole('status').filter({ hasText: 'from the address' });
  await expect(notice).toContainText('currency "XYZ" (unknown currency)', { timeout: 30_000 });
  await expect(notice).toContainText('Status “FOO” from the address is not known to this dashboard');
  await expect(page.locator('.status-choice .menu-button__button')).toHaveText('FAILED, FOO');
  await expect(page.getByRole('button', { name: /^Currency/ })).toHaveText('EUR');
  await expect(page.locator('tbody tr[data-row-id]').first()).toBeVisible({ timeout: 30_000 });
  const statuses = await page.locator('tbody [data-column="status"]').allTextContents();
  expect(new Set(statuses.map((s) => s.trim()))).toEqual(new Set(['FAILED']));
});

test('a payment link keeps the group and the search it was copied from', async ({ page, browser }) => {
  test.setTimeout(120_000);
  // a payment of a subsidiary, found by its counterparty in the group's search
  const [row] = (await sandboxPage({ limit: '1' }, 'acme-eu-de')).data as Row[];
  const q = (row?.counterparty ?? '').split(' ')[0] ?? '';
  expect(q.length).toBeGreaterThan(2);
  await page.goto(`/?company=${COMPANY}&group=true&q=${encodeURIComponent(q)}`);
  await expect(page.getByTestId('search-status')).toHaveText(/^[\d,]+ match(es)?$/, { timeout: 60_000 });
  const first = page.locator('tbody tr[data-row-id]').first();
  const id = (await first.getAttribute('data-row-id')) ?? '';
  const counterparty = ((await first.locator('[data-column="counterparty"]').textContent()) ?? '').trim();
  expect(counterparty.length).toBeGreaterThan(0);
  await first.locator('[data-row-link]').click();
  await expect(page).toHaveURL(new RegExp(`/payments/${id}\\?company=${COMPANY}&group=true&q=`));
  const link = page.url();

  // opened anew, as a colleague would
  const context = await browser.newContext({ storageState: await page.context().storageState() });
  const other = await context.newPage();
  await other.goto(link);
  // the payment itself is shown (not only its id), found among the search's matches
  await expect(other.getByRole('dialog')).toContainText(counterparty, { timeout: 60_000 });
  await expect(other.getByRole('dialog')).toContainText(id);
  await expect(other.getByRole('searchbox', { name: 'Search' })).toHaveValue(q);
  await expect(other.getByTestId('payment-found-in')).toHaveCount(0);
  expect(other.url()).toBe(link);
  await context.close();
});

test("an empty period says where the view's data begins and ends, and shows a month in one click", async ({
  page,
}) => {
  const [newest] = (await sandboxPage({ limit: '1', status: 'FAILED' }, COMPANY)).data;
  expect(newest).toBeDefined();
  const asked: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/payments') asked.push(new URL(request.url()).search);
  });
  await page.goto(
    `/?company=${COMPANY}&status=FAILED&date_from=2030-01-01T00:00:00&date_to=2030-01-31T23:59:59`,
  );
  const hint = page.getByTestId('empty-period-hint');
  await expect(hint).toContainText('Newest payment of this view:', { timeout: 30_000 });
  // the period's page, then one row of the view at any date
  expect(asked).toEqual([
    '?limit=50&status=FAILED&date_from=2030-01-01T00%3A00%3A00&date_to=2030-01-31T23%3A59%3A59',
    '?limit=1&status=FAILED',
  ]);
  // where it begins: the view counted at any date, its oldest payment the sandbox's last FAILED row
  const failed = await sandboxRows(COMPANY, { status: 'FAILED' });
  const oldest = failed.at(-1)?.created_at ?? '';
  const oldestDay = new Intl.DateTimeFormat('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(Date.parse(`${oldest.slice(0, 10)}T00:00:00Z`));
  const begins = page.getByTestId('data-begins-hint');
  await expect(begins).toHaveText(
    `Oldest payment of this view: ${oldestDay}, of ${failed.length.toLocaleString('en')} at any date — show its first month`,
    { timeout: 60_000 },
  );
  await expect(begins.getByRole('link', { name: 'show its first month' })).toHaveAttribute(
    'href',
    new RegExp(`date_from=${oldest.slice(0, 7)}-01T00:00:00&`),
  );
  await hint.getByRole('link', { name: 'show that month' }).click();
  const month = newest?.created_at.slice(0, 7) ?? '';
  await expect(page).toHaveURL(
    new RegExp(`[?&]status=FAILED&date_from=${month}-01T00:00:00&date_to=${month}-`),
  );
  await expect(page.locator(`tbody tr[data-row-id="${newest?.id}"]`)).toBeVisible({ timeout: 30_000 });
});
