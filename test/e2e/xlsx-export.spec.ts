import { readFile } from 'node:fs/promises';
import ExcelJS from 'exceljs';
import { companiesOf, expect, sandboxPage, signInByApi, test } from './fixtures.ts';
import { stack } from './stack.ts';

/** An exact decimal string as an integer count of 10^-scale units. */
function scaled(decimal: string, scale: number): bigint {
  const negative = decimal.startsWith('-');
  const [whole = '0', fraction = ''] = decimal.replace(/^-/, '').split('.');
  const units = BigInt(whole + fraction.padEnd(scale, '0').slice(0, scale));
  return negative ? -units : units;
}

/** The seeded texts a spreadsheet would take for a formula (server/src/sandbox/seed-content.ts). */
const FORMULA = '=HYPERLINK("http://example.invalid","click")';
const DISCOUNT = '-5% early payment discount';

test("the XLSX of a group's range opens in exceljs typed, whole, with its header frozen", async ({
  page,
}, testInfo) => {
  test.setTimeout(60_000);
  await signInByApi(page);
  // The route comes with the server's XLSX export, built beside this; until it is merged the BFF answers 404.
  const route = await page.request.head('/api/payments/export.xlsx', { headers: { 'X-CSRF': '1' } });
  test.skip(route.status() === 404, 'this BFF has no GET /api/payments/export.xlsx yet');
  const newest = (await sandboxPage({ limit: '1' }, 'acme-eu')).data[0]?.created_at ?? '';
  const to = newest.slice(0, 10);
  const from = new Date(Date.parse(`${to}T00:00:00Z`) - 45 * 86_400_000).toISOString().slice(0, 10);
  const range = `date_from=${from}T00:00:00&date_to=${to}T23:59:59`;
  await page.goto(`/?company=acme-eu&group=true&${range}`);
  await expect(page.locator('tbody tr[data-row-id]').first()).toBeVisible();

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export' }).click();
  await page.getByRole('menuitem', { name: 'Excel (XLSX), shown columns' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe(`payments_acme-eu_group_${from}_to_${to}_UTC.xlsx`);
  await expect(page.getByTestId('export-status')).toHaveText(
    new RegExp(`^Saved ${file.suggestedFilename().replaceAll('.', '\\.')}: [\\d.]+ (KB|MB)\\.$`),
  );
  await page.screenshot({ path: testInfo.outputPath('xlsx-exported.png') });

  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load((await readFile(await file.path())) as unknown as ExcelJS.Buffer);
  const sheet = workbook.worksheets[0];
  if (!sheet) throw new Error('the workbook has no sheet');
  // the header stays in view while the rows scroll
  expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
  const header = (sheet.getRow(1).values as unknown[]).slice(1);
  // created_at is written in the zone the export was asked in, and its header names it: the stack's is UTC, so its
  // Date cells read as the UTC times compared below
  const CREATED = 'Created (UTC)';
  // The table's labels head the columns.
  for (const column of ['Payment ID', 'Company ID', 'Company', CREATED, 'Amount', 'Currency', 'Description'])
    expect(header).toContain(column);
  const at = (name: string) => header.indexOf(name) + 1;
  const rows = [];
  for (let n = 2; n <= sheet.rowCount; n++) rows.push(sheet.getRow(n));
  expect(rows.length).toBeGreaterThan(100);

  const names = new Map((await companiesOf(stack.sandboxCredentials)).map((c) => [c.id, c.name]));
  const sums = new Map<string, bigint>();
  const descriptions = new Set<unknown>();
  for (const row of rows) {
    const cell = (name: string) => row.getCell(at(name)).value;
    expect(typeof cell('Payment ID')).toBe('string');
    expect(cell(CREATED)).toBeInstanceOf(Date);
    const created = (cell(CREATED) as Date).toISOString();
    expect(created >= `${from}T00:00:00` && created <= `${to}T23:59:59.999Z`).toBe(true);
    expect(cell('Company')).toBe(names.get(cell('Company ID') as string));
    const amount = cell('Amount');
    expect(typeof amount).toBe('number');
    const currency = cell('Currency') as string;
    sums.set(currency, (sums.get(currency) ?? 0n) + scaled(String(amount), 3));
    descriptions.add(cell('Description'));
  }
  // texts a spreadsheet would take for a formula are read back as the very text, no formula, no apostrophe
  expect(descriptions).toContain(FORMULA);
  expect(descriptions).toContain(DISCOUNT);
  for (const row of rows) {
    const value = row.getCell(at('Description')).value;
    expect(typeof value === 'string' || value === null).toBe(true);
  }
  expect([...descriptions].some((text) => typeof text === 'string' && text.startsWith("'"))).toBe(false);

  const summary = await page.request.get(`/api/payments/summary?group=true&${range}`, {
    headers: { 'X-CSRF': '1', 'X-Company-Id': 'acme-eu' },
  });
  const figures = (await summary.json()) as { count: number; totals: { currency: string; total: string }[] };
  expect(figures.count).toBe(rows.length);
  expect(Object.fromEntries(sums)).toEqual(
    Object.fromEntries(figures.totals.map(({ currency, total }) => [currency, scaled(total, 3)])),
  );
  // The second sheet holds the same figures: all companies' totals per currency first.
  const sheetOfFigures = workbook.getWorksheet('figures');
  if (!sheetOfFigures) throw new Error('the workbook has no figures sheet');
  const all = figures.totals.map((_, i) => (sheetOfFigures.getRow(i + 2).values as unknown[]).slice(1));
  expect(all).toEqual(
    figures.totals.map(({ currency, total }) => [
      'All companies',
      'All',
      currency,
      expect.any(Number),
      Number(total),
    ]),
  );
});
