import { readFile } from 'node:fs/promises';
import { expect, renderedIds, sandboxIds, signInByApi, test } from './fixtures.ts';

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
  const view = await renderedIds(page);
  expect(view).toEqual(expected);

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/\.csv$/);
  const text = await readFile(await file.path(), 'utf8');
  expect(text.startsWith('\uFEFF')).toBe(true); // the byte order mark Excel needs to read UTF-8
  const records = csvRecords(text.slice(1));
  const header = records[0] ?? [];
  const idColumn = header.indexOf('id');
  expect(idColumn).toBeGreaterThanOrEqual(0);
  expect(records.slice(1).map((r) => r[idColumn])).toEqual(view);
  await expect(page.getByTestId('export-status')).toHaveText(
    `Saved ${file.suggestedFilename()}: ${view.length} rows.`,
  );
});
