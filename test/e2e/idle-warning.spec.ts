import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from '@playwright/test';
import { expect, screenshot, test } from './fixtures.ts';
import { freePort, type OwnStack, startOwnStack } from './own-stack.ts';
import { stack, stackEnv } from './stack.ts';

/**
 * The idle warning against a stack of its own with the shortest idle timeout (60 s: the warning shows halfway).
 * The browser's clock is moved where only the page's timers matter (to the warning); the server's clock cannot
 * be, so the one real wait (just over a minute) is shared by three sessions at once: one that stays, one left to
 * run out, and one whose watch never loads, which learns of the end from a 401.
 */
const IDLE_SECONDS = 60;

let own: OwnStack | undefined;
test.beforeAll(async () => {
  own = await startOwnStack({
    // No freshness poll within the test: the pages left alone make no request of their own.
    ...stackEnv({
      SANDBOX_SEED_COUNT: '500',
      SESSION_IDLE_TIMEOUT: String(IDLE_SECONDS),
      FRESHNESS_POLL_SECONDS: '3600',
    }),
    SANDBOX_PORT: String(await freePort()),
  });
});
test.afterAll(async () => {
  await own?.stop();
});

const origin = () => own?.origin ?? '';

/** Signs in through the API and opens the list; when its rows show, every request of the load has left. */
async function openList(page: Page): Promise<void> {
  const response = await page.request.post(`${origin()}/api/session`, {
    headers: { 'X-CSRF': '1' },
    data: { username: stack.username, password: stack.password },
  });
  expect(response.status()).toBe(200);
  await page.goto(`${origin()}/?company=acme-eu`);
  await expect(page.locator('tbody tr[data-row-id]').first()).toBeVisible();
}

async function otherPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext();
  return context.newPage();
}

/** A look at the session that does not count as use: the idle time it has left, or the refusal. */
async function lookAt(page: Page): Promise<{ status: number; idleLeft: number }> {
  const response = await page.request.get(`${origin()}/api/session`, {
    headers: { 'X-CSRF': '1', 'X-Background': '1' },
  });
  return { status: response.status(), idleLeft: Number(response.headers()['x-session-idle-left']) };
}

/** Every violation axe finds with its full rule set, of any impact. */
async function allViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.map((v) => ({
    id: v.id,
    impact: v.impact,
    nodes: v.nodes.map((n) => n.target.join(' ')).slice(0, 3),
  }));
}

async function expectIdleSignIn(
  page: Page,
  url = /\/sign-in\?next=%2F%3Fcompany%3Dacme-eu&reason=idle$/,
): Promise<void> {
  await expect(page).toHaveURL(url, { timeout: 15_000 });
  await expect(page.getByText('You were signed out after 1 minute of inactivity.')).toBeVisible();
  await expect(page.getByLabel('Username')).toHaveValue(stack.username);
  await expect(page.getByLabel('Password')).toHaveValue('');
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

test('the idle warning: shown before the end, "Stay signed in" keeps the session, left alone it ends', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const left = await otherPage(browser);
  const unwatched = await otherPage(browser);
  try {
    await page.clock.install();
    await openList(page);
    // Every request of the load has left: its first was the last use of the session before "Stay".
    const loaded = Date.now();
    // Left alone from here, on the real clock: its watch warns after 30 s and ends it after 60.
    await openList(left);
    // Its watch's code never arrives: only the 401 of its next request can tell it the session ended.
    await unwatched.route('**/assets/idle-warning-*.js', (route) => route.abort());
    await openList(unwatched);
    const othersLoaded = Date.now();

    await test.step('the warning shows halfway through the idle time, accessible', async () => {
      const before = await lookAt(page);
      expect(before.status).toBe(200);
      // The page's own requests after the first went as background: nobody used it.
      expect(before.idleLeft).toBeLessThan(IDLE_SECONDS);
      await page.clock.fastForward(IDLE_SECONDS * 500 + 1000);
      const warning = page.getByRole('alertdialog', { name: 'Your session is about to end' });
      await expect(warning).toBeVisible();
      await expect(warning).toContainText(/you will be signed out in \d+ s\./);
      await expect(page.getByRole('button', { name: 'Stay signed in' })).toBeFocused();
      await screenshot(page, 'idle-warning');
      expect(await allViolations(page)).toEqual([]);
    });

    await test.step('"Stay signed in" closes it and restarts the idle time on the server', async () => {
      // Not before a third of the idle time has passed, so that the session's end without it is well before
      // its end with it (the look below comes between the two).
      await sleep(loaded + 20_000 - Date.now());
      await page.getByRole('button', { name: 'Stay signed in' }).click();
      await expect(page.getByRole('alertdialog')).toBeHidden();
      expect((await lookAt(page)).idleLeft).toBeGreaterThanOrEqual(IDLE_SECONDS - 2);
    });

    await test.step('past the end it would have had without it, the session that stayed is on', async () => {
      // The one real wait: until the sessions left alone have surely ended on the server.
      await sleep(othersLoaded + (IDLE_SECONDS + 1) * 1000 - Date.now());
      expect(Date.now() - loaded).toBeGreaterThan(IDLE_SECONDS * 1000);
      expect((await lookAt(page)).status).toBe(200);
    });

    await test.step('a session left alone ends: the sign-in page says why and keeps the username', async () => {
      await expectIdleSignIn(left);
      // The one whose watch never loaded: its next request meets the 401 that says why.
      await unwatched.locator('.status-choice .menu-button__button').click();
      await unwatched.getByRole('button', { name: 'Only FAILED' }).click();
      await expectIdleSignIn(
        unwatched,
        /\/sign-in\?next=%2F%3Fcompany%3Dacme-eu%26status%3DFAILED&reason=idle$/,
      );
    });
  } finally {
    await left.context().close();
    await unwatched.context().close();
  }
});
