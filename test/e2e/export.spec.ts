import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { expect, exportAs, renderedRows, sandboxIds, signInByApi, test } from './fixtures.ts';

/** Minimal RFC 4180 reader: enough to take the first column of each record, quoted fields included. */
function csvRecords(text: string): string[][] {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      record.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      record.push(field);
      records.push(record);
      record = [];
      field = '';
    } else field += ch;
  }
  if (field !== '' || record.length > 0) records.push([...record, field]);
  return records;
}

test('the export downloads the CSV of the current view, row for row', async ({ page }) => {
  await signInByApi(page);
  const query = { status: 'FAILED', date_from: '2026-01-01T00:00:00' };
  const expected = await sandboxIds(query, 'acme-jp');
  expect(expected.length).toBeGreaterThan(0);
  expect(expected.length).toBeLessThanOrEqual(100);
  await page.goto('/?company=acme-jp&status=FAILED&date_from=2026-01-01T00:00:00&limit=100');
  await expect(page.getByTestId('list-status')).toContainText('end of list');
  // the table draws only the rows in view: the list is read by scrolling it to its end
  const view = await wholeList(page);
  expect(view).toEqual(expected);

  const download = page.waitForEvent('download');
  await exportAs(page, 'CSV, shown columns');
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/\.csv$/);
  const text = await readFile(await file.path(), 'utf8');
  expect(text.startsWith('\uFEFF')).toBe(true); // the byte order mark Excel needs to read UTF-8
  const records = csvRecords(text.slice(1));
  const header = records[0] ?? [];
  const idColumn = header.indexOf('Payment ID');
  expect(idColumn).toBeGreaterThanOrEqual(0);
  expect(records.slice(1).map((r) => r[idColumn])).toEqual(view);
  await expect(page.getByTestId('export-status')).toHaveText(
    `Saved ${file.suggestedFilename()}: ${view.length} rows.`,
  );
});

/** Every row of the list, in order: the table is scrolled to its end, each row taken by its position. */
async function wholeList(page: Page): Promise<string[]> {
  const byPosition = new Map<number, string>();
  const scroller = page.locator('.grid-scroll');
  await expect(page.locator('tbody tr[data-row-id]').first()).toBeVisible();
  for (let step = 0; step < 100; step++) {
    for (const row of await renderedRows(page)) byPosition.set(row.index, row.id);
    const status = (await page.getByTestId('list-status').textContent()) ?? '';
    const atBottom = await scroller.evaluate((el) => el.scrollTop + el.clientHeight >= el.scrollHeight - 2);
    if (atBottom && status.includes('end of list')) break;
    await scroller.evaluate((el) => el.scrollBy(0, el.clientHeight * 0.8));
    await page.waitForTimeout(50);
  }
  const positions = [...byPosition.keys()].sort((a, b) => a - b);
  expect(positions).toEqual(positions.map((_, i) => i + 2));
  return positions.map((position) => byPosition.get(position) ?? '');
}

test("an export of a group's date range holds the list's payments, in the list's order", async ({ page }) => {
  await signInByApi(page);
  const range = { date_from: '2026-05-20T00:00:00', date_to: '2026-05-26T23:59:59' };
  const members = ['acme-eu', 'acme-eu-de', 'acme-eu-fr'];
  const expected = new Set(
    (await Promise.all(members.map((company) => sandboxIds({ date_from: range.date_from }, company)))).flat(),
  );
  await page.goto(
    `/?company=acme-eu&group=true&date_from=${range.date_from}&date_to=${range.date_to}&limit=25`,
  );
  const list = await wholeList(page);
  // the sandbox has no date_to: the list ends at the range's end, where the sandbox's answer goes on
  expect(list.length).toBeGreaterThan(25);
  for (const id of list) expect(expected.has(id)).toBe(true);

  const download = page.waitForEvent('download');
  await exportAs(page, 'CSV, shown columns');
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^payments_acme-eu_group_.*\.csv$/);
  const records = csvRecords((await readFile(await file.path(), 'utf8')).slice(1));
  const header = records[0] ?? [];
  // Headed by the table's labels.
  const ids = records.slice(1).map((r) => r[header.indexOf('Payment ID')]);
  expect(ids).toEqual(list);
  const created = records.slice(1).map((r) => r[header.indexOf('Created (UTC)')] ?? '');
  for (const at of created)
    expect(at >= '2026-05-20T00:00:00' && at <= '2026-05-26T23:59:59.999Z').toBe(true);
  expect(new Set(records.slice(1).map((r) => r[header.indexOf('Company')])).size).toBeGreaterThan(1);
  await expect(page.getByTestId('export-status')).toHaveText(
    `Saved ${file.suggestedFilename()}: ${list.length} rows.`,
  );
});
