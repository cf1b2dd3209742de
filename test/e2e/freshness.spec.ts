import { expect, test } from './fixtures.ts';
import { freePort, type OwnStack, startOwnStack } from './own-stack.ts';
import { stack, stackEnv } from './stack.ts';

// A stack of its own: payments keep arriving (the sandbox's live inserts), and the list checks every 2 s.
let own: OwnStack | undefined;
test.beforeAll(async () => {
  own = await startOwnStack({
    ...stackEnv({ SANDBOX_LIVE_RATE: '4', SANDBOX_SEED_COUNT: '3000', FRESHNESS_POLL_SECONDS: '2' }),
    SANDBOX_PORT: String(await freePort()),
  });
});
test.afterAll(async () => {
  await own?.stop();
});

test('"Updated" says when the list was checked; new payments are counted without moving the rows, and shown on request', async ({
  page,
}, testInfo) => {
  const origin = own?.origin ?? '';
  const signIn = await page.request.post(`${origin}/api/session`, {
    headers: { 'X-CSRF': '1' },
    data: { username: stack.username, password: stack.password },
  });
  expect(signIn.status()).toBe(200);
  await page.goto(`${origin}/?company=acme&group=true`);
  const freshness = page.getByTestId('freshness');
  await expect(freshness).toHaveText(/^Updated \d{2}:\d{2}/);
  const firstRow = page.locator('tbody tr[data-row-id]').first();
  const before = await firstRow.getAttribute('data-row-id');

  const show = freshness.getByRole('button', { name: /new payments?: show$/ });
  await expect(show).toBeVisible({ timeout: 15_000 });
  await page.screenshot({ path: testInfo.outputPath('new-payments.png') });
  // The rows under the user's eyes have not moved.
  expect(await firstRow.getAttribute('data-row-id')).toBe(before);
  const announced = Number(/^(\d+)/.exec((await show.textContent()) ?? '')?.[1]);
  expect(announced).toBeGreaterThan(0);

  await show.click();
  await expect(firstRow).not.toHaveAttribute('data-row-id', before ?? '');
  // The payment that was newest is now below the ones that arrived, at least `announced` rows down. The rows are
  // virtual: scrolled to where it must be, it is drawn, and its row index says how far down it is.
  await page.locator('.grid-scroll').evaluate((scroller, rows) => scroller.scrollTo(0, rows * 36), announced);
  const formerNewest = page.locator(`tbody tr[data-row-id="${before}"]`);
  await expect(formerNewest).toBeAttached();
  // aria-rowindex counts from 1, the header row first
  expect(Number(await formerNewest.getAttribute('aria-rowindex')) - 2).toBeGreaterThanOrEqual(announced);
  await page.screenshot({ path: testInfo.outputPath('new-payments-shown.png') });
});
