import { expect, signInByApi, test } from './fixtures.ts';

test.beforeEach(async ({ page }) => {
  await signInByApi(page);
});

test('a sorted view says how old it is, and Refresh sorts it again from a walk begun after the click', async ({
  page,
}) => {
  const firstPages: { fresh: string | null; asOf: string; progress: number }[] = [];
  // Read through the test, whole (Playwright keeps no body of a streamed answer), then handed to the page as is.
  await page.route(
    (url) => url.pathname === '/api/payments' && !url.searchParams.has('cursor'),
    async (route) => {
      const response = await route.fetch();
      const text = await response.text();
      // a page the BFF had to sort for comes as a stream of its walk's progress, ending in the page
      const streamed = (response.headers()['content-type'] ?? '').startsWith('text/event-stream');
      const pageText = streamed ? (/^event: page\ndata: (.*)$/m.exec(text)?.[1] ?? 'null') : text;
      const body = JSON.parse(pageText) as { as_of?: string } | null;
      const progress = streamed ? (text.match(/^event: progress$/gm)?.length ?? 0) : 0;
      const fresh = new URL(route.request().url()).searchParams.get('fresh');
      firstPages.push({ fresh, asOf: body?.as_of ?? '', progress });
      await route.fulfill({ response, body: text });
    },
  );
  // One company: its whole list is walked and sorted, on a shared machine.
  await page.goto('/?company=acme&sort=amount:desc');
  await expect(page.locator('tbody tr[data-row-id]').first()).toBeVisible({ timeout: 30_000 });
  const freshness = page.getByTestId('freshness');
  await expect(freshness).toHaveText(/^Sorted as of \d{2}:\d{2}$/);
  expect(firstPages.map((p) => p.fresh)).toEqual([null]);
  const sortedAt = Date.parse(firstPages[0]?.asOf ?? '');

  const clicked = Date.now();
  await page.getByRole('button', { name: 'Refresh' }).click();
  await expect.poll(() => firstPages.length, { timeout: 30_000 }).toBe(2);
  expect(firstPages[1]?.fresh).toBe('true');
  // walked again, and the BFF streamed how far it was (the page here gets it at once: the route reads it whole)
  expect(firstPages[1]?.progress).toBeGreaterThan(0);
  // A new snapshot, walked from after the click (the BFF and the browser share this machine's clock).
  const refreshedAt = Date.parse(firstPages[1]?.asOf ?? '');
  expect(refreshedAt).toBeGreaterThan(sortedAt);
  expect(refreshedAt).toBeGreaterThanOrEqual(clicked - 1_000);
  await expect(freshness).toHaveText(/^Sorted as of \d{2}:\d{2}$/);
  await expect(page.locator('tbody tr[data-row-id]').first()).toBeVisible();
});
