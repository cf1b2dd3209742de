import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { allViolations, companiesOf, expect, screenshot, signInByApi, test } from './fixtures.ts';
import { stack } from './stack.ts';

/**
 * The edge of Counterparty's header taken with the mouse and dragged 60 px, still held: the handle's value has
 * grown with the column (the caller lets go).
 */
async function holdCounterpartyEdgeDragged(page: Page): Promise<void> {
  const handle = page.getByRole('separator', { name: 'Width of Counterparty' });
  const before = Number(await handle.getAttribute('aria-valuenow'));
  const edge = await handle.boundingBox();
  if (!edge) throw new Error('no resize handle');
  await page.mouse.move(edge.x + edge.width / 2, edge.y + edge.height / 2);
  await page.mouse.down();
  await page.mouse.move(edge.x + edge.width / 2 + 60, edge.y + edge.height / 2, { steps: 4 });
  await expect.poll(async () => Number(await handle.getAttribute('aria-valuenow'))).toBeGreaterThan(before);
}

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(' ')).slice(0, 3) }));
}

test('axe finds no serious or critical violation on sign-in, the list and the drawer', async ({ page }) => {
  // Three axe runs, each seconds long on a 2-core machine running two browsers.
  test.setTimeout(90_000);
  await page.goto('/sign-in');
  await expect(page.getByRole('heading', { name: 'Sign in to Payments' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  await signInByApi(page);
  await page.goto('/');
  await expect(page.locator('tbody tr[data-row-id]').first()).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  await page.locator('[data-row-link]').first().click();
  await expect(page.getByRole('dialog')).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});

test('axe finds no violation of any impact on sign-in, the list, the switcher, the shortcuts and the drawer', async ({
  page,
}) => {
  // Each full axe run takes seconds on a busy 2-core machine.
  test.setTimeout(90_000);
  const seen: Record<string, unknown> = {};
  await page.goto('/sign-in');
  await expect(page.getByRole('heading', { name: 'Sign in to Payments' })).toBeVisible();
  seen['sign-in'] = await allViolations(page);

  await signInByApi(page);
  await page.goto('/?company=acme-eu');
  await expect(page.locator('tbody tr[data-row-id]').first()).toBeVisible();
  await expect(page.getByTestId('summary-count')).toBeVisible({ timeout: 20_000 });
  seen.list = await allViolations(page);

  await page.locator('.company-switcher__button').click();
  await expect(page.getByRole('tree')).toBeVisible();
  seen.switcher = await allViolations(page);
  await page.keyboard.press('Escape');

  await page.locator('[data-row-link]').first().focus();
  await page.keyboard.press('?');
  await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
  seen.shortcuts = await allViolations(page);
  await page.keyboard.press('Escape');

  await page.locator('[data-row-link]').first().click();
  await expect(page.getByRole('dialog')).toBeVisible();
  seen.drawer = await allViolations(page);
  expect(seen).toEqual({ 'sign-in': [], list: [], switcher: [], shortcuts: [], drawer: [] });
});

test('axe finds no violation of any impact on the export menu, the chart with its numbers and the drawer', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const seen: Record<string, unknown> = {};
  await signInByApi(page);
  await page.goto('/?company=acme-eu');
  await expect(page.getByTestId('summary-count')).toBeVisible({ timeout: 20_000 });

  // the menu by keyboard: ArrowDown opens it on its first item, Escape closes it onto the button
  await page.getByRole('button', { name: 'Export' }).focus();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('menuitem', { name: 'CSV, shown columns' })).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await expect(page.getByRole('menuitem', { name: 'Excel (XLSX), all columns' })).toBeFocused();
  seen['export menu'] = await allViolations(page);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('menu')).toBeHidden();
  await expect(page.getByRole('button', { name: 'Export' })).toBeFocused();

  // Numbers by keyboard: Enter opens them, their box takes focus and scrolls, Escape closes them
  const numbers = page.locator('summary', { hasText: 'Numbers' });
  await numbers.focus();
  await page.keyboard.press('Enter');
  const box = page.getByRole('region', { name: 'Payments and volume per day' });
  await expect(box).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(box).toBeFocused();
  await page.keyboard.press('PageDown');
  await expect.poll(() => box.evaluate((element) => element.scrollTop)).toBeGreaterThan(0);
  seen['chart numbers'] = await allViolations(page);
  await screenshot(page, 'chart-numbers');
  await page.keyboard.press('Escape');
  await expect(box).toBeHidden();
  await expect(numbers).toBeFocused();

  await page.locator('[data-row-link]').first().click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await page.getByText('As sent by the API').click();
  seen.drawer = await allViolations(page);
  expect(seen).toEqual({ 'export menu': [], 'chart numbers': [], drawer: [] });
});

test('axe finds no violation of any impact on the table with a column menu open and during a resize', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const seen: Record<string, unknown> = {};
  await signInByApi(page);
  await page.goto('/?company=acme-eu');
  await expect(page.locator('tbody tr[data-row-id]').first()).toBeVisible();
  await expect(page.locator('thead th[data-column="created_at"]')).toHaveAttribute('aria-sort', 'descending');

  await page.getByRole('button', { name: 'Column options: Amount' }).click();
  await expect(page.getByRole('menu', { name: 'Amount column' })).toBeVisible();
  seen['column menu'] = await allViolations(page);
  await page.keyboard.press('Escape');

  // held mid-drag: the handle's value changes as the column does
  await holdCounterpartyEdgeDragged(page);
  seen.resizing = await allViolations(page);
  await page.mouse.up();
  expect(seen).toEqual({ 'column menu': [], resizing: [] });
});

test('axe finds no violation of any impact while a column is resized with a column menu open', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await signInByApi(page);
  await page.goto('/?company=acme-eu');
  await expect(page.locator('tbody tr[data-row-id]').first()).toBeVisible();
  await page.getByRole('button', { name: 'Column options: Amount' }).click();
  const menu = page.getByRole('menu', { name: 'Amount column' });
  await expect(menu).toBeVisible();

  // another column's edge held mid-drag, the menu still open: both in the page axe reads
  await holdCounterpartyEdgeDragged(page);
  await expect(menu).toBeVisible();
  const seen = await allViolations(page);
  await page.mouse.up();
  expect(seen).toEqual([]);
});

test.describe('at 390 px', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('axe finds no violation of any impact on the table and its summary, whose lines wrap', async ({
    page,
  }) => {
    test.setTimeout(60_000);
    await signInByApi(page);
    await page.goto('/?company=acme');
    await expect(page.getByTestId('summary-count')).toBeVisible({ timeout: 20_000 });
    // the figures wrap into lines within the screen: nothing in them is scrolled to
    const totals = page.getByRole('list', { name: 'Totals per currency' });
    expect(await totals.evaluate((list) => list.scrollWidth <= list.clientWidth)).toBe(true);
    expect(await allViolations(page)).toEqual([]);
    await screenshot(page, 'summary-390');
  });
});

test('axe finds no violation of any impact on the empty, forbidden and failed states', async ({ page }) => {
  test.setTimeout(90_000);
  const seen: Record<string, unknown> = {};
  await signInByApi(page);
  await page.goto('/?company=acme-eu&date_from=2099-01-01T00:00:00');
  await expect(page.getByText('No payments match these filters.')).toBeVisible();
  seen.empty = await allViolations(page);

  const [otherRoot] = await companiesOf(stack.otherCredentials);
  await page.goto(`/?company=${otherRoot?.id ?? 'nope'}`);
  await expect(page.getByRole('alert')).toContainText('You do not have access to the company');
  seen.forbidden = await allViolations(page);

  await page.route('**/api/payments?*', (route) =>
    route.fulfill({
      status: 503,
      contentType: 'application/problem+json',
      body: JSON.stringify({
        type: 'about:blank',
        title: 'x',
        status: 503,
        detail: 'down',
        code: 'upstream_unavailable',
      }),
    }),
  );
  await page.goto('/?company=acme-us');
  await expect(page.getByRole('alert')).toContainText('not answering');
  seen.failed = await allViolations(page);

  expect(seen).toEqual({ empty: [], forbidden: [], failed: [] });
});

/** Sends keydowns to whatever holds focus, all in one task: no frame is drawn between them. */
async function pressWithinOneFrame(page: Page, keys: string[]): Promise<void> {
  await page.evaluate((keys) => {
    for (const key of keys) {
      const init = { key, bubbles: true, cancelable: true };
      document.activeElement?.dispatchEvent(new KeyboardEvent('keydown', init));
    }
  }, keys);
}

/**
 * Presses Tab until `done` holds for the focused element, failing after `max` presses. The table's header holds
 * three stops per column (sort, menu, width) before the rows.
 */
async function tabUntil(page: Page, done: (el: Element) => boolean, max = 80): Promise<void> {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate(`(${done.toString()})(document.activeElement)`)) return;
  }
  throw new Error('focus never reached the wanted element');
}

test('the main flow works with the keyboard alone, with focus always visible', async ({ page }) => {
  test.setTimeout(60_000);
  await signInByApi(page);
  await page.goto('/');
  await expect(page.locator('tbody tr[data-row-id]').first()).toBeVisible();

  // company: open the switcher, search, choose with Enter
  await tabUntil(page, (el) => el.classList.contains('company-switcher__button'));
  await page.keyboard.press('Enter');
  await page.keyboard.type('Europe');
  await expect(page.getByRole('treeitem', { name: /Acme Europe/ })).toHaveClass(/is-active/);
  await page.keyboard.press('ArrowUp');
  await expect(page.getByRole('treeitem', { name: /Acme Holding/ })).toHaveClass(/is-active/);
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/[?&]company=acme-eu(&|$)/);
  await expect(page.locator('.company-switcher__button')).toBeFocused();

  // status: its button opens the boxes, Space ticks one, Escape closes back onto the button
  await tabUntil(page, (el) => el.tagName === 'BUTTON' && el.closest('.status-choice') !== null);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('checkbox', { name: 'COMPLETED' })).toBeFocused();
  await page.keyboard.press('Space');
  await expect(page).toHaveURL(/[?&]status=COMPLETED/);
  await page.keyboard.press('Escape');
  await expect(page.locator('.status-choice .menu-button__button')).toBeFocused();

  // the table: one tab stop, arrows move between rows, Enter opens, Escape closes back onto the row
  await tabUntil(page, (el) => el.hasAttribute('data-row-link'));
  const outline = await page.evaluate(() => getComputedStyle(document.activeElement as Element).outlineStyle);
  expect(outline).not.toBe('none');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  // Read the id only once focus has reached the third row: key presses are delivered before React moves focus.
  await expect(page.locator('[data-row-link="2"]')).toBeFocused();
  const focusedId = await page.evaluate(() => document.activeElement?.textContent ?? '');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/payments/${focusedId}\\?company=acme-eu&status=COMPLETED$`));
  const drawer = page.getByRole('dialog');
  await expect(drawer).toBeVisible();
  await screenshot(page, 'keyboard-drawer');
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();
  await expect(page.locator('[data-row-link="2"]')).toBeFocused();
  // Tab leaves the table in one step instead of walking thousands of rows
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => document.activeElement?.hasAttribute('data-row-link'))).toBe(false);
});

test('row keys pressed faster than frames are drawn each move on from the last', async ({ page }) => {
  // As when a key repeats on a busy main thread: every press counts, none is lost to a focus still in flight.
  await signInByApi(page);
  await page.goto('/');
  await expect(page.locator('tbody tr[data-row-id]').first()).toBeVisible();
  await page.locator('[data-row-link="0"]').focus();

  await pressWithinOneFrame(page, ['ArrowDown', 'ArrowDown', 'ArrowDown']);
  await expect(page.locator('[data-row-link="3"]')).toBeFocused();

  // A PageDown may land on a row not drawn yet, focused a frame later; the keys after it go on from that row.
  // Rows per PageDown as the table counts them: the rows its scroller shows (36 px each, ROW_HEIGHT) less one.
  const rowsPerPage = await page.evaluate(
    () => Math.floor((document.querySelector('.grid-scroll')?.clientHeight ?? 0) / 36) - 1,
  );
  expect(rowsPerPage).toBeGreaterThan(3);
  await pressWithinOneFrame(page, ['PageDown', 'PageDown', 'ArrowDown', 'ArrowUp', 'ArrowUp']);
  await expect(page.locator(`[data-row-link="${3 + 2 * rowsPerPage - 1}"]`)).toBeFocused();
  await expect(page.locator('.grid-scroll [data-row-link]:focus')).toBeInViewport();
});
