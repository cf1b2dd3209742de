import { readFile } from 'node:fs/promises';
import type { Locator, Page } from '@playwright/test';
import { columnLabels, expect, exportAs, screenshot, signInByApi, test } from './fixtures.ts';

/** The columns as the header draws them, in order, with their widths in whole pixels. */
function drawnColumns(page: Page) {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('thead th')].map(
      (th) => `${th.dataset.column}:${Math.round(th.getBoundingClientRect().width)}`,
    ),
  );
}
const ids = (columns: string[]) => columns.map((column) => column.split(':')[0]);

/** Opens a column's menu by keyboard and chooses an item with the arrows and Enter. */
async function chooseByKeys(page: Page, column: string, item: string): Promise<void> {
  await page.getByRole('button', { name: `Column options: ${column}` }).focus();
  await page.keyboard.press('Enter');
  const menu = page.getByRole('menu', { name: `${column} column` });
  await expect(menu.getByRole('menuitem').first()).toBeFocused();
  for (let step = 0; step < 8; step++) {
    if ((await page.evaluate(() => document.activeElement?.textContent)) === item) break;
    await page.keyboard.press('ArrowDown');
  }
  await expect(menu.getByRole('menuitem', { name: item })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(menu).toBeHidden();
  // back on the column's menu button, wherever the column went; a hidden column has none
  if (item !== 'Hide column')
    await expect(page.getByRole('button', { name: `Column options: ${column}` })).toBeFocused();
}

async function width(handle: Locator): Promise<number> {
  return Number(await handle.getAttribute('aria-valuenow'));
}

/** The labels a CSV file's header names, as written: `"Created (UTC)"` keeps its zone. */
function csvHeader(text: string): string[] {
  const first = text.replace(/^\uFEFF/, '').split(/\r?\n/)[0] ?? '';
  return first.split(',').map((name) => name.replace(/^"|"$/g, ''));
}

const DEFAULT_ORDER = [
  'id',
  'created_at',
  'status',
  'amount',
  'currency',
  'counterparty',
  'description',
  'reference',
  'company_id',
];

test('a column layout made by mouse and by keys survives a reload, is what the export writes, and resets', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await signInByApi(page);
  await page.goto('/?company=acme-jp&status=FAILED');
  await expect(page.locator('tbody tr[data-row-id]').first()).toBeVisible();
  const defaults = await drawnColumns(page);
  expect(ids(defaults)).toEqual(DEFAULT_ORDER);

  // resize with the mouse: the edge of Description dragged 80 px to the right
  const description = page.getByRole('separator', { name: 'Width of Description' });
  const before = await width(description);
  const edge = await description.boundingBox();
  if (!edge) throw new Error('no resize handle');
  await page.mouse.move(edge.x + edge.width / 2, edge.y + edge.height / 2);
  await page.mouse.down();
  await page.mouse.move(edge.x + edge.width / 2 + 40, edge.y + edge.height / 2, { steps: 4 });
  await page.mouse.move(edge.x + edge.width / 2 + 80, edge.y + edge.height / 2, { steps: 4 });
  await page.mouse.up();
  await expect.poll(() => width(description)).toBe(before + 80);

  // resize with the keyboard: three steps of 10 px on Reference's focused handle
  const reference = page.getByRole('separator', { name: 'Width of Reference' });
  const referenceBefore = await width(reference);
  await reference.focus();
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
  await expect.poll(() => width(reference)).toBe(referenceBefore + 30);

  // move with the keyboard: Status one place right, past Amount; then pin Amount
  await chooseByKeys(page, 'Status', 'Move right');
  await chooseByKeys(page, 'Amount', 'Pin to the left');
  await expect(page.locator('thead th[data-column="amount"]')).toHaveClass(/is-pinned/);
  // Currency hidden: the file of shown columns leaves it out
  await page.locator('summary', { hasText: 'Columns' }).click();
  await page.getByRole('checkbox', { name: 'Currency' }).uncheck();
  await page.keyboard.press('Escape');

  const laidOut = await drawnColumns(page);
  expect(ids(laidOut)).toEqual([
    'id',
    'amount',
    'created_at',
    'status',
    'counterparty',
    'description',
    'reference',
    'company_id',
  ]);
  await screenshot(page, 'columns-laid-out');

  await page.reload();
  await expect(page.locator('tbody tr[data-row-id]').first()).toBeVisible();
  expect(await drawnColumns(page)).toEqual(laidOut);
  // the rows' cells follow the header
  const firstRow = await page
    .locator('tbody tr[data-row-id]')
    .first()
    .evaluate((row) => [...row.querySelectorAll<HTMLElement>('td')].map((td) => td.dataset.column));
  expect(firstRow).toEqual(ids(laidOut));

  const download = page.waitForEvent('download');
  await exportAs(page, 'CSV, shown columns');
  const file = await download;
  // exactly the table's columns in the table's order, each headed by the label the table gives it
  const labels = await columnLabels(page);
  expect(labels).toHaveLength(laidOut.length);
  expect(labels.slice(0, 3)).toEqual(['Payment ID', 'Amount', 'Created (UTC)']);
  expect(csvHeader(await readFile(await file.path(), 'utf8'))).toEqual(labels);

  await page.locator('summary', { hasText: 'Columns' }).click();
  await page.getByRole('button', { name: 'Reset columns' }).click();
  expect(await drawnColumns(page)).toEqual(defaults);
  await page.reload();
  await expect(page.locator('tbody tr[data-row-id]').first()).toBeVisible();
  expect(await drawnColumns(page)).toEqual(defaults);
});

test("the layout is stored under the signed-in user's name: each user of a browser keeps their own", async ({
  page,
}) => {
  await signInByApi(page);
  await page.goto('/?company=acme-jp');
  await expect(page.locator('tbody tr[data-row-id]').first()).toBeVisible();
  await chooseByKeys(page, 'Reference', 'Hide column');
  await expect(page.locator('thead th[data-column="reference"]')).toHaveCount(0);
  const stored = await page.evaluate(() =>
    Object.keys(localStorage).filter((key) => key.includes('columns')),
  );
  expect(stored).toEqual(['payments-dashboard.columns.v2:demo']);
});

test('a header dragged onto another takes its place', async ({ page }) => {
  await signInByApi(page);
  await page.goto('/?company=acme-jp');
  await expect(page.locator('tbody tr[data-row-id]').first()).toBeVisible();
  await page
    .locator('thead th[data-column="reference"] .column-head__label')
    .dragTo(page.locator('thead th[data-column="status"] .column-head__sort'));
  await expect
    .poll(async () => ids(await drawnColumns(page)).slice(0, 4))
    .toEqual(['id', 'created_at', 'reference', 'status']);
});

test.describe('at 390 px', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the pinned columns stay in view while the table scrolls sideways', async ({ page }) => {
    await signInByApi(page);
    await page.goto('/?company=acme');
    const firstRow = page.locator('tbody tr[data-row-id]').first();
    await expect(firstRow).toBeVisible();
    await chooseByKeys(page, 'Amount', 'Pin to the left');
    const scroller = page.locator('.grid-scroll');
    await scroller.evaluate((box) => box.scrollTo({ left: box.scrollWidth }));
    await expect.poll(() => scroller.evaluate((box) => box.scrollLeft)).toBeGreaterThan(500);

    // drawn where they were, and on top: what the user sees at their middle is them, not the cells scrolled under
    const seen = await page.evaluate(() => {
      const box = document.querySelector('.grid-scroll')?.getBoundingClientRect();
      const row = document.querySelector('tbody tr[data-row-id]');
      return ['id', 'amount'].map((column) => {
        const cell = row?.querySelector<HTMLElement>(`[data-column="${column}"]`);
        const rect = cell?.getBoundingClientRect();
        if (!box || !cell || !rect) return `${column}: missing`;
        const top = document.elementFromPoint(rect.left + rect.width / 2, rect.top + rect.height / 2);
        return `${column}: ${rect.left >= box.left && rect.right <= box.right ? 'in view' : 'out of view'}, ${cell.contains(top) ? 'on top' : 'covered'}`;
      });
    });
    expect(seen).toEqual(['id: in view, on top', 'amount: in view, on top']);
    await expect(page.locator('thead th[data-column="amount"]')).toBeInViewport();
    await expect(page.locator('thead th[data-column="created_at"]')).not.toBeInViewport();
    await screenshot(page, 'columns-390-pinned-scrolled');
  });
});
