import type { Page } from '@playwright/test';
import { expect, screenshot, signInByApi, test } from './fixtures.ts';

test.beforeEach(async ({ page }) => {
  await signInByApi(page);
  await page.goto('/?company=acme');
  await expect(page.locator('tbody tr[data-row-id]').first()).toBeVisible();
});

/** The row index of the focused row link, or null when focus is not on a row. */
const focusedRow = (page: Page) =>
  page.evaluate(() => {
    const index = document.activeElement?.getAttribute('data-row-link');
    return index === null || index === undefined ? null : Number(index);
  });

test('focus stays on a row through End, Home, Page keys and wheel scrolling', async ({ page }) => {
  await page.locator('[data-row-link="0"]').focus();
  await page.keyboard.press('PageDown');
  expect(await focusedRow(page)).toBeGreaterThan(5);
  const rowsOf = () =>
    page.locator('table[aria-rowcount]').evaluate((table) => Number(table.getAttribute('aria-rowcount')) - 1);
  const loaded = await rowsOf();
  await page.keyboard.press('End');
  await expect.poll(() => focusedRow(page)).toBe(loaded - 1);
  // The last row brings the next page: focus stays on that row as the page arrives.
  await expect.poll(rowsOf).toBeGreaterThan(loaded);
  expect(await focusedRow(page)).toBe(loaded - 1);
  await page.keyboard.press('Home');
  await expect.poll(() => focusedRow(page)).toBe(0);

  // The wheel takes the focused row far out of the drawn ones: focus moves to a row in view, not to the page.
  const box = await page.locator('.grid-scroll').boundingBox();
  await page.mouse.move((box?.x ?? 0) + 200, (box?.y ?? 0) + 200);
  for (let i = 0; i < 8; i++) await page.mouse.wheel(0, 1500);
  await expect.poll(() => focusedRow(page)).toBeGreaterThan(40);
  await page.keyboard.press('ArrowDown');
  expect(await focusedRow(page)).not.toBeNull();
  await screenshot(page, 'keyboard-focus-after-wheel');
});

test('Enter on a row opens it; Escape closes it and focus returns to the row', async ({ page }) => {
  await page.locator('[data-row-link="3"]').focus();
  await page.keyboard.press('Enter');
  const drawer = page.getByRole('dialog');
  await expect(drawer).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(drawer).toHaveCount(0);
  expect(await focusedRow(page)).toBe(3);
});

test('a click anywhere on a row opens it, and a click outside the drawer closes it', async ({ page }) => {
  const row = page.locator('tbody tr[data-row-id]').nth(2);
  const id = await row.getAttribute('data-row-id');
  await row.locator('[data-column="status"]').click();
  const drawer = page.getByRole('dialog');
  await expect(drawer).toContainText(id ?? 'missing');
  await page.mouse.click(5, 300);
  await expect(drawer).toHaveCount(0);
});

test('the Columns panel closes with Escape (focus back on its button) and with a click outside', async ({
  page,
}) => {
  const button = page.locator('summary', { hasText: 'Columns' });
  const panel = page.getByRole('group', { name: 'Shown columns' });
  await button.click();
  await expect(panel).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
  await expect(button).toBeFocused();
  await button.click();
  await expect(panel).toBeVisible();
  await page.locator('h1').click();
  await expect(panel).toBeHidden();
});

test('? lists the shortcuts; Escape closes the list and focus returns to the row', async ({ page }) => {
  await page.locator('[data-row-link="1"]').focus();
  await page.keyboard.press('?');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(help).toBeVisible();
  await expect(help).toContainText('Home, End');
  await screenshot(page, 'keyboard-shortcuts');
  await page.keyboard.press('Escape');
  await expect(help).toHaveCount(0);
  expect(await focusedRow(page)).toBe(1);
  // Typed into a field, ? is a character, not a shortcut.
  await page.getByRole('combobox', { name: 'Page size' }).focus();
  await page.keyboard.press('?');
  await expect(help).toHaveCount(0);
});
