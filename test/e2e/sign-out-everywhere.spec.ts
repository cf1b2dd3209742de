import type { Page } from '@playwright/test';
import { expect, screenshot, test } from './fixtures.ts';
import { freePort, type OwnStack, startOwnStack } from './own-stack.ts';
import { stack, stackEnv } from './stack.ts';

// A stack of its own: ending every session of the demo user must not end those of the specs running beside it.
let own: OwnStack | undefined;
test.beforeAll(async () => {
  own = await startOwnStack({
    ...stackEnv({ SANDBOX_SEED_COUNT: '3000' }),
    SANDBOX_PORT: String(await freePort()),
  });
});
test.afterAll(async () => {
  await own?.stop();
});

async function signInAt(page: Page, origin: string) {
  const response = await page.request.post(`${origin}/api/session`, {
    headers: { 'X-CSRF': '1' },
    data: { username: stack.username, password: stack.password },
  });
  expect(response.status()).toBe(200);
}

test('"Sign out everywhere" ends the sessions of the user in every browser, and a copied cookie with them', async ({
  page,
  browser,
}) => {
  const origin = own?.origin ?? '';
  await signInAt(page, origin);
  const other = await browser.newContext();
  const elsewhere = await other.newPage();
  try {
    await signInAt(elsewhere, origin);
    await elsewhere.goto(`${origin}/?company=acme-eu`);
    await expect(elsewhere.locator('tbody tr[data-row-id]').first()).toBeVisible();
    // the figures come after the first rows: asked for after the sign-out, their 401 would end it before the pick
    await expect(elsewhere.getByTestId('summary-count')).toBeVisible({ timeout: 20_000 });
    const copied = (await other.cookies()).find((c) => c.name === 'session');
    expect(copied).toBeDefined();

    await page.goto(`${origin}/`);
    await page.getByRole('button', { name: 'Sign out everywhere' }).click();
    await expect(page).toHaveURL(/\/sign-in\?reason=signed-out$/);
    await screenshot(page, 'signed-out-everywhere');

    // The other browser's next request finds its session ended.
    await elsewhere.locator('.status-choice .menu-button__button').click();
    await elsewhere.getByRole('button', { name: 'Only FAILED' }).click();
    await expect(elsewhere).toHaveURL(/\/sign-in\?.*reason=expired/);
    const replay = await page.request.get(`${origin}/api/session`, {
      headers: { 'X-CSRF': '1', cookie: `session=${copied?.value}` },
    });
    expect(replay.status()).toBe(401);
  } finally {
    await other.close();
  }
});
