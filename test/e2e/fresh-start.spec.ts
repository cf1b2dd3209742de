import { expect, test } from './fixtures.ts';
import { freePort, type OwnStack, startOwnStack } from './own-stack.ts';
import { stack, stackEnv } from './stack.ts';

// A stack of its own, its seed end not pinned: a first run as a new user makes it, its data up to now.
let own: OwnStack | undefined;
test.beforeAll(async () => {
  own = await startOwnStack({
    // empty counts as unset: the sandbox seeds the two years up to the moment it starts
    ...stackEnv({ SANDBOX_SEED_COUNT: '3000', SANDBOX_SEED_END: '' }),
    SANDBOX_PORT: String(await freePort()),
  });
});
test.afterAll(async () => {
  await own?.stop();
});

test("a fresh start, its seed end not pinned, lists last month's payments", async ({ page }) => {
  const origin = own?.origin ?? '';
  const signIn = await page.request.post(`${origin}/api/session`, {
    headers: { 'X-CSRF': '1' },
    data: { username: stack.username, password: stack.password },
  });
  expect(signIn.status()).toBe(200);
  const now = new Date();
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  const last = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 0));
  const day = (date: Date) => date.toISOString().slice(0, 10);
  const month = `date_from=${day(first)}T00:00:00&date_to=${day(last)}T23:59:59`;
  const response = await page.request.get(`${origin}/api/payments/summary?group=true&${month}`, {
    headers: { 'X-CSRF': '1', 'X-Company-Id': 'acme' },
  });
  expect(response.status()).toBe(200);
  // 3,000 payments over two years: last month holds about 120 of them.
  expect(((await response.json()) as { count: number }).count).toBeGreaterThan(30);
  await page.goto(`${origin}/?company=acme&group=true&${month}`);
  await expect(page.locator('tbody tr[data-row-id]').first()).toBeVisible();
});
