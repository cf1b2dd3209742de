import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import ExcelJS from 'exceljs';
import { expect, exportAs, signInByApi, test } from './fixtures.ts';

// The stack's company zone is UTC; this browser reads times in Berlin.
test.use({ timezoneId: 'Europe/Berlin' });

const api = { 'X-CSRF': '1', 'X-Company-Id': 'acme-eu' };

/** A UTC wall time `YYYY-MM-DDTHH:MM:SS` as Berlin's wall time of the same instant. */
function inBerlin(utcWall: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone: 'Europe/Berlin',
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
      .formatToParts(Date.parse(`${utcWall}Z`))
      .map((part) => [part.type, part.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}`;
}

/** The view's first row as the BFF lists it, for the range in the address. */
async function firstRow(page: Page): Promise<{ id: string; created_at: string }> {
  const url = new URL(page.url());
  const range = `date_from=${url.searchParams.get('date_from')}&date_to=${url.searchParams.get('date_to')}`;
  const body = (await (
    await page.request.get(`/api/payments?group=true&limit=1&${range}`, { headers: api })
  ).json()) as { data: { id: string; created_at: string }[] };
  const row = body.data[0];
  if (!row) throw new Error('the view has no rows');
  return row;
}

/** The view's first row on screen: its id and its created time as the wall time shown. */
async function shownFirstRow(page: Page) {
  const row = page.locator('tbody tr[data-row-id]').first();
  await expect(row).toBeVisible({ timeout: 30_000 });
  return {
    id: (await row.getAttribute('data-row-id')) ?? '',
    created: ((await row.locator('[data-column="created_at"]').textContent()) ?? '')
      .slice(0, 19)
      .replace(' ', 'T'),
  };
}

/** The XLSX of the view: its name, its first row (id, created) and its figures sheet's lines. */
async function workbookOf(page: Page) {
  const download = page.waitForEvent('download');
  await exportAs(page, 'Excel (XLSX), shown columns');
  const file = await download;
  const book = new ExcelJS.Workbook();
  await book.xlsx.load((await readFile(await file.path())) as unknown as ExcelJS.Buffer);
  const rows = book.worksheets[0];
  const figures = book.getWorksheet('figures');
  if (!rows || !figures) throw new Error('the workbook lacks a sheet');
  const header = (rows.getRow(1).values as unknown[]).slice(1);
  const cell = (name: string) => rows.getRow(2).getCell(header.indexOf(name) + 1).value;
  const lines: unknown[][] = [];
  figures.eachRow((row) => {
    lines.push((row.values as unknown[]).slice(1));
  });
  return {
    name: file.suggestedFilename(),
    first: {
      id: cell('Payment ID'),
      created: (cell('Created (Europe/Berlin)') as Date).toISOString().slice(0, 19),
    },
    lines,
  };
}

test("in Berlin a month counts in the company's zone or, chosen, in Berlin's, and says so on screen and in its file", async ({
  page,
}) => {
  test.setTimeout(240_000);
  // June 2026: "Last month" is May, the last month of the sandbox's data
  await page.clock.setFixedTime(new Date('2026-06-10T10:00:00Z'));
  await signInByApi(page);
  await page.goto('/?company=acme-eu&group=true');
  await expect(page.locator('tbody tr[data-row-id]').first()).toBeVisible({ timeout: 30_000 });
  await page.getByRole('button', { name: /^Times in/ }).click();
  await page.getByRole('radio', { name: "This browser's zone, Europe/Berlin" }).check();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('columnheader', { name: 'Created (Europe/Berlin)' })).toBeVisible();

  // The company's May: its days in UTC, its times read in Berlin, the zone it counts in named.
  const range = page.getByRole('combobox', { name: 'Range' });
  await range.selectOption('Last month');
  await expect(page).toHaveURL(/date_from=2026-05-01T00:00:00&date_to=2026-05-31T23:59:59/);
  await expect(range.locator('option:checked')).toHaveText('Last month · 1 May – 31 May 2026 (UTC)');
  await expect(page.getByTestId('summary-period')).toHaveText('in 1 May – 31 May 2026 (UTC)', {
    timeout: 60_000,
  });
  const may = await firstRow(page);
  const shown = await shownFirstRow(page);
  expect(shown).toEqual({ id: may.id, created: inBerlin(may.created_at) });
  const file = await workbookOf(page);
  expect(file.name).toBe('payments_acme-eu_group_2026-05-01_to_2026-05-31_UTC.xlsx');
  expect(file.first).toEqual(shown);
  expect(file.lines).toContainEqual(['Period', '2026-05-01 – 2026-05-31 (UTC)']);

  // The figures sheet is the screen's figures: per status, and per company, each total to the cent.
  await page.getByRole('button', { name: 'Per status and company' }).click();
  const money = (currency: string, total: number) =>
    new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(total);
  const sheetTotals = (company: string, status: string) =>
    file.lines
      .filter((line) => line[0] === company && line[1] === status)
      .map((line) => money(String(line[2]), Number(line[4])));
  for (const status of ['COMPLETED', 'AWAITING', 'FAILED', 'CANCELLED'])
    await expect(
      page.getByTestId(`summary-status-totals-${status}`).locator('li > .summary__amount'),
    ).toHaveText(sheetTotals('All companies', status));
  const companies = page.getByTestId('summary-companies').locator('tbody tr');
  await expect(companies).toHaveCount(3);
  for (const company of await companies.all()) {
    const name = (await company.locator('th').textContent()) ?? '';
    await expect(company.locator('li[data-currency]')).toHaveText(sheetTotals(name, 'All'));
  }

  // Counted in Berlin, as chosen: Berlin's May, from 22:00 on 30 April to 21:59:59 on 31 May in UTC.
  await page.getByRole('button', { name: /^Times in/ }).click();
  await page.getByRole('checkbox', { name: 'Count periods in Europe/Berlin' }).check();
  await page.keyboard.press('Escape');
  await range.selectOption('Last month');
  await expect(page).toHaveURL(/date_from=2026-04-30T22:00:00&date_to=2026-05-31T21:59:59/);
  await expect(range.locator('option:checked')).toHaveText(
    'Last month · 1 May – 31 May 2026 (Europe/Berlin)',
  );
  await expect(page.getByTestId('summary-period')).toHaveText('in 1 May – 31 May 2026 (Europe/Berlin)', {
    timeout: 60_000,
  });
  const berlinMay = await firstRow(page);
  const shownThere = await shownFirstRow(page);
  expect(shownThere).toEqual({ id: berlinMay.id, created: inBerlin(berlinMay.created_at) });
  expect(shownThere.created <= '2026-05-31T23:59:59').toBe(true);
  const there = await workbookOf(page);
  expect(there.name).toBe('payments_acme-eu_group_2026-05-01_to_2026-05-31_Europe-Berlin.xlsx');
  expect(there.first).toEqual(shownThere);
  expect(there.lines).toContainEqual(['Period', '2026-05-01 – 2026-05-31 (Europe/Berlin)']);
});
