import { expect, signInByApi, test } from './fixtures.ts';

test.beforeEach(async ({ page }) => {
  await signInByApi(page);
});

const MAY = 'date_from=2026-05-01T00:00:00&date_to=2026-05-31T23:59:59';
const api = { 'X-CSRF': '1', 'X-Company-Id': 'acme-eu' };

/** An exact decimal string as an integer count of thousandths. */
const milli = (decimal: string) => {
  const [whole = '0', fraction = ''] = decimal.split('.');
  return BigInt(`${whole}${fraction.padEnd(3, '0')}`);
};

test("a group's per-company table sums to the group's totals exactly, each line a link to its company", async ({
  page,
}) => {
  await page.goto(`/?company=acme-eu&group=true&${MAY}`);
  // the count walks the group's month first: on a loaded machine that takes a while
  await expect(page.getByTestId('summary-count')).toBeVisible({ timeout: 60_000 });
  await page.getByRole('button', { name: 'Per status and company' }).click();
  const table = page.getByRole('table', { name: 'Figures per company' });
  await expect(table).toBeVisible();
  const summary = (await (
    await page.request.get(`/api/payments/summary?group=true&${MAY}`, { headers: api })
  ).json()) as {
    count: number;
    totals: { currency: string; total: string }[];
  };
  const lines = await table.locator('tbody tr').evaluateAll((rows) =>
    rows.map((row) => ({
      company: row.getAttribute('data-company-id') ?? '',
      href: row.querySelector('a')?.getAttribute('href') ?? '',
      count: Number((row.querySelector('td')?.textContent ?? '').replaceAll(',', '')),
      totals: [...row.querySelectorAll('li[data-currency]')].map((li) => ({
        currency: li.getAttribute('data-currency') ?? '',
        total: li.getAttribute('data-total') ?? '',
      })),
    })),
  );
  expect(lines.map((line) => line.company)).toEqual(['acme-eu', 'acme-eu-de', 'acme-eu-fr']);
  expect(lines.reduce((sum, line) => sum + line.count, 0)).toBe(summary.count);
  for (const { currency, total } of summary.totals) {
    const sum = lines
      .flatMap((line) => line.totals)
      .filter((t) => t.currency === currency)
      .reduce((acc, t) => acc + milli(t.total), 0n);
    expect(`${currency} ${sum}`).toBe(`${currency} ${milli(total)}`);
  }
  await table.getByRole('link').nth(1).click();
  await expect(page).toHaveURL(/\?company=acme-eu-de&date_from=/);
  await expect(page.locator('tbody tr[data-row-id]').first()).toBeVisible();
});

test('AWAITING and FAILED with an amount range list exactly those rows, with their money per status', async ({
  page,
}) => {
  const query = `status=AWAITING,FAILED&amount_min=50&amount_max=2000&${MAY}`;
  const listed: { status: string; amount: number; currency: string }[] = [];
  let cursor: string | null = null;
  do {
    const response = await page.request.get(
      `/api/payments?${query}&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      {
        headers: api,
      },
    );
    expect(response.status()).toBe(200);
    const body = (await response.json()) as { data: typeof listed; next_cursor: string | null };
    listed.push(...body.data);
    cursor = body.next_cursor;
  } while (cursor);
  expect(listed.length).toBeGreaterThan(0);
  for (const row of listed) expect(['AWAITING', 'FAILED']).toContain(row.status);
  const summary = (await (
    await page.request.get(`/api/payments/summary?${query}`, { headers: api })
  ).json()) as {
    count: number;
    by_status_totals: { status: string; count: number }[];
  };
  expect(summary.count).toBe(listed.length);
  expect(summary.by_status_totals.map((s) => s.status).sort()).toEqual(
    [...new Set(listed.map((row) => row.status))].sort(),
  );
  const unknown = await page.request.get('/api/payments?currency=EUR,XQQ', { headers: api });
  expect(unknown.status()).toBe(400);
  expect(((await unknown.json()) as { detail: string }).detail).toBe('currency: XQQ is not a currency code');
});
