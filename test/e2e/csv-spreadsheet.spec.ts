import { readFile } from 'node:fs/promises';
import { parse } from 'csv-parse/sync';
import { columnLabels, expect, exportAs, sandboxPage, signInByApi, test } from './fixtures.ts';
import { stack } from './stack.ts';

/** An exact decimal string as an integer count of 10^-scale units. */
function scaled(decimal: string, scale: number): bigint {
  const negative = decimal.startsWith('-');
  const [whole = '0', fraction = ''] = decimal.replace(/^-/, '').split('.');
  const units = BigInt(whole + fraction.padEnd(scale, '0').slice(0, scale));
  return negative ? -units : units;
}

test('the CSV opens in a real CSV parser with the columns the table shows, and its amounts sum to the summary', async ({
  page,
}, testInfo) => {
  await signInByApi(page);
  // Hidden in the table (the layout as the app stores it for this user), so not in the file.
  await page.addInitScript((username) => {
    const hidden = { description: false, reference: false, company_id: false };
    const layout = { visibility: hidden, order: [], sizing: {}, pinned: ['id'] };
    localStorage.setItem(`payments-dashboard.columns.v2:${username}`, JSON.stringify(layout));
  }, stack.username);
  const newest = (await sandboxPage({ limit: '1' }, 'acme-eu')).data[0]?.created_at ?? '';
  const to = newest.slice(0, 10);
  const from = new Date(Date.parse(`${to}T00:00:00Z`) - 20 * 86_400_000).toISOString().slice(0, 10);
  const range = `date_from=${from}T00:00:00&date_to=${to}T23:59:59`;
  await page.goto(`/?company=acme-eu&group=true&${range}`);
  await expect(page.locator('tbody tr[data-row-id]').first()).toBeVisible();

  const download = page.waitForEvent('download');
  await exportAs(page, 'CSV, shown columns');
  const file = await download;
  expect(file.suggestedFilename()).toBe(`payments_acme-eu_group_${from}_to_${to}_UTC.csv`);
  const text = await readFile(await file.path(), 'utf8');
  await page.screenshot({ path: testInfo.outputPath('csv-exported.png') });
  const records: Record<string, string>[] = parse(text, { bom: true, columns: true, skip_empty_lines: true });
  const header = Object.keys(records[0] ?? {});
  // Exactly the shown columns in the table's order, headed by the table's labels; Created names the zone its
  // times are in.
  const shown = await columnLabels(page);
  expect(shown).toEqual([
    'Payment ID',
    'Company',
    'Created (UTC)',
    'Status',
    'Amount',
    'Currency',
    'Counterparty',
  ]);
  expect(header).toEqual(shown);
  expect(records.length).toBeGreaterThan(100);
  for (const record of records) {
    const at = record['Created (UTC)'] ?? '';
    expect(at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/);
    expect(at >= `${from}T00:00:00` && at <= `${to}T23:59:59+00:00`).toBe(true);
  }

  const summary = await page.request.get(`/api/payments/summary?group=true&${range}`, {
    headers: { 'X-CSRF': '1', 'X-Company-Id': 'acme-eu' },
  });
  const figures = (await summary.json()) as { count: number; totals: { currency: string; total: string }[] };
  expect(figures.count).toBe(records.length);
  for (const { currency, total } of figures.totals) {
    const scale = Math.max(total.split('.')[1]?.length ?? 0, 3);
    const sum = records
      .filter((record) => record.Currency === currency)
      .reduce((acc, record) => acc + scaled(record.Amount ?? '0', scale), 0n);
    expect(`${currency} ${sum}`).toBe(`${currency} ${scaled(total, scale)}`);
  }
  expect(new Set(records.map((r) => r.Currency)).size).toBe(figures.totals.length);
});
