import { LIMIT_MAX } from '@payments/shared';
import type { Page, Route } from '@playwright/test';
import { companiesOf, expect, renderedIds, signInByApi, test } from './fixtures.ts';
import { stack } from './stack.ts';

/**
 * What the list makes of pages a real upstream may send and the sandbox does not: ids that repeat across a
 * group's companies, pages shorter than the limit or empty while more follow, a position that expired. The BFF's
 * answers are replaced by crafted pages, keyed by the cursor asked for (`first` without one).
 */

type Row = { id: string; company_id: string };
type CraftedPage = { data: Row[]; next_cursor: string | null; has_more: boolean; company_ids?: string[] };

test.beforeEach(async ({ page }) => {
  await signInByApi(page);
});

function payment(id: string, company: string, day: number): Row & Record<string, unknown> {
  return {
    id,
    company_id: company,
    status: 'COMPLETED',
    amount: 1000 + day,
    currency: 'EUR',
    created_at: `2026-05-${String(day).padStart(2, '0')}T10:00:00`,
  };
}

/** Answers every list request (the freshness poll's too) with `pages`, after `delayMs`; returns the cursors asked. */
async function servePages(page: Page, pages: Record<string, CraftedPage>, delayMs = 0) {
  const cursors: Array<string | null> = [];
  await page.route('**/api/payments?*', async (route: Route) => {
    const request = new URL(route.request().url());
    const cursor = request.searchParams.get('cursor');
    // the freshness poll asks for the first page at the largest limit: not a page of the list (the X-Background
    // header no longer tells them apart: every request the user did not cause is sent with it)
    const poll = cursor === null && request.searchParams.get('limit') === String(LIMIT_MAX);
    if (!poll) cursors.push(cursor);
    const body = pages[cursor ?? 'first'];
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    if (!body) return route.fulfill({ status: 500, body: `no crafted page for ${cursor}` });
    await route.fulfill({ json: body });
  });
  return cursors;
}

/** Whether the empty panel was ever drawn since the page started, watched from inside the page. */
async function watchForEmptyPanel(page: Page) {
  await page.addInitScript(() => {
    const seen = window as unknown as { __emptyPanelSeen?: boolean };
    new MutationObserver(() => {
      if (document.querySelector('.panel--empty')) seen.__emptyPanelSeen = true;
    }).observe(document, { childList: true, subtree: true });
  });
  return () =>
    page.evaluate(() => (window as unknown as { __emptyPanelSeen?: boolean }).__emptyPanelSeen === true);
}

test("a group whose companies each number their payments 1, 2, 3 shows every row; a click opens that company's", async ({
  page,
}) => {
  const names = new Map((await companiesOf(stack.sandboxCredentials)).map((c) => [c.id, c.name]));
  const group = ['acme-eu', 'acme-eu-de', 'acme-eu-fr'];
  const rows = (id: string, day: number) => group.map((company) => payment(id, company, day));
  const first = [...rows('2', 20), ...rows('1', 10)];
  const second = rows('3', 5);
  await servePages(page, {
    first: {
      data: first,
      company_ids: first.map((row) => row.company_id),
      next_cursor: 'p2',
      has_more: true,
    },
    p2: {
      data: second,
      company_ids: second.map((row) => row.company_id),
      next_cursor: null,
      has_more: false,
    },
  });
  await page.goto('/?company=acme-eu&group=true');
  await expect(page.getByTestId('list-status')).toHaveText('9 payments loaded · end of list');
  const drawn = await page.locator('tbody tr[data-row-id]').evaluateAll((elements) =>
    elements.map((row) => ({
      id: row.getAttribute('data-row-id'),
      company: row.getAttribute('data-company-id'),
      name: row.querySelector('[data-column="@company"]')?.textContent,
    })),
  );
  expect(drawn).toEqual(
    [...first, ...second].map((row) => ({
      id: row.id,
      company: row.company_id,
      name: names.get(row.company_id),
    })),
  );

  // The address names the payment by its id; the drawer shows the company of the row that was clicked.
  const french = page.locator('tr[data-row-id="1"][data-company-id="acme-eu-fr"]');
  await french.locator('[data-column="status"]').click();
  await expect(page).toHaveURL(/\/payments\/1\?company=acme-eu&group=true$/);
  const drawer = page.getByRole('dialog', { name: 'Payment 1' });
  await expect(drawer.locator('dd[data-field="@company"]')).toHaveText(names.get('acme-eu-fr') ?? '');
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();
  await expect(french.getByRole('link')).toBeFocused();

  // A deep link, with nothing but the id, opens the first row of that id.
  await page.goto('/payments/1?company=acme-eu&group=true');
  await expect(
    page.getByRole('dialog', { name: 'Payment 1' }).locator('dd[data-field="@company"]'),
  ).toHaveText(names.get('acme-eu') ?? '');
});

test('empty and short pages while more follow: the list keeps loading, and is never called empty', async ({
  page,
}) => {
  const emptyPanelSeen = await watchForEmptyPanel(page);
  const cursors = await servePages(
    page,
    {
      first: { data: [], next_cursor: 'e1', has_more: true },
      e1: { data: [], next_cursor: 'e2', has_more: true },
      e2: {
        data: [payment('p3', 'acme-us', 3), payment('p2', 'acme-us', 2)],
        next_cursor: 'e3',
        has_more: true,
      },
      e3: { data: [], next_cursor: 'e4', has_more: true },
      e4: { data: [payment('p1', 'acme-us', 1)], next_cursor: null, has_more: false },
    },
    // each page takes a moment, so the screen between two of them can be seen (and would show a wrong "empty")
    150,
  );
  await page.goto('/?company=acme-us&limit=25');
  await expect(page.getByTestId('list-status')).toHaveText('3 payments loaded · end of list');
  expect(await renderedIds(page)).toEqual(['p3', 'p2', 'p1']);
  expect(cursors).toEqual([null, 'e1', 'e2', 'e3', 'e4']);
  expect(await emptyPanelSeen()).toBe(false);
});

test('a list of empty pages says it is empty only once it has ended', async ({ page }) => {
  const emptyPanelSeen = await watchForEmptyPanel(page);
  // the last page is held until the screen before it has been looked at
  let release: () => void = () => {};
  const lastPageHeld = new Promise<void>((resolve) => {
    release = resolve;
  });
  let lastPageAsked = false;
  await page.route('**/api/payments?*', async (route) => {
    if (new URL(route.request().url()).searchParams.get('cursor') === null)
      return route.fulfill({ json: { data: [], next_cursor: 'e1', has_more: true } });
    lastPageAsked = true;
    await lastPageHeld;
    await route.fulfill({ json: { data: [], next_cursor: null, has_more: false } });
  });
  await page.goto('/?company=acme-us&status=FAILED');
  await expect.poll(() => lastPageAsked).toBe(true);
  await expect(page.getByTestId('list-status')).toHaveText('Loading payments…');
  await expect(page.getByTestId('skeleton')).toBeVisible();
  expect(await emptyPanelSeen()).toBe(false);
  release();
  await expect(page.getByText('No payments match these filters.')).toBeVisible();
  await expect(page.getByTestId('list-status')).toHaveText('0 payments loaded · end of list');
});

test('a next page refused because its position expired starts the list over, and says so', async ({
  page,
}) => {
  const cursors: Array<string | null> = [];
  await page.route('**/api/payments?*', async (route) => {
    const url = new URL(route.request().url());
    const cursor = url.searchParams.get('cursor');
    // the freshness poll (the first page at the largest limit) is not a page of the list
    if (cursor === null && url.searchParams.get('limit') === String(LIMIT_MAX)) return route.continue();
    cursors.push(cursor);
    if (cursor === null || cursors.filter((asked) => asked !== null).length > 1) return route.continue();
    await route.fulfill({
      status: 400,
      contentType: 'application/problem+json',
      json: {
        type: 'urn:payments-dashboard:problem:cursor_expired',
        title: 'Cursor expired',
        status: 400,
        detail: 'injected by the test',
        code: 'cursor_expired',
      },
    });
  });
  // a page of 25 does not reach past the window's rows by 20: the second page is asked for at once
  await page.goto('/?limit=25');
  await expect(page.getByText('The list was restarted because its position expired.')).toBeVisible();
  await expect(page.getByTestId('list-status')).toContainText(/^(50|75|100) payments loaded/);
  expect(cursors.slice(0, 3).map((cursor) => cursor === null)).toEqual([true, false, true]);
  await expect(page.getByText(/Could not load more/)).toHaveCount(0);
});
