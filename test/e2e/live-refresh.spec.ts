import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningSandbox, startSandbox } from '@payments/server/sandbox';
import { expect, test } from './fixtures.ts';
import { type OwnStack, startOwnStack } from './own-stack.ts';
import {
  companiesUnder,
  keyOf,
  type OracleRow,
  shownTotals,
  totalsText,
  walkSandbox,
} from './sandbox-oracle.ts';

/**
 * Refresh while payments arrive: a BFF of its own on a sandbox served from this process, so the test adds
 * payments to it while the page is open and reads the same sandbox, without the BFF, as the oracle.
 */

const PASSWORD = 'live-refresh-e2e-password';
let upstream: RunningSandbox | undefined;
let bff: OwnStack | undefined;
let dir = '';

test.beforeAll(async () => {
  test.setTimeout(90_000);
  upstream = await startSandbox({ port: 0, seedCount: 3_000 });
  dir = await mkdtemp(join(tmpdir(), 'live-refresh-e2e-'));
  const companiesFile = join(dir, 'companies.json');
  await writeFile(companiesFile, JSON.stringify(upstream.sandbox.tenants[0]?.companies ?? []));
  bff = await startOwnStack({
    PAYMENTS_BASE_URL: upstream.baseUrl,
    PAYMENTS_SECRET_ID: 'sandbox_id',
    PAYMENTS_SECRET_PASSWORD: 'sandbox_secret',
    PAYMENTS_COMPANIES_FILE: companiesFile,
    APP_SECRET: 'live-refresh-e2e-secret-0123456789abcdef0123',
    DEMO_PASSWORD: PASSWORD,
    PAYMENTS_TIME_ZONE: 'UTC',
    // a page just read is not answered again from memory: Refresh reads the sandbox as it is now
    UPSTREAM_PAGE_REUSE_MS: '0',
  });
});

test.afterAll(async () => {
  await bff?.stop();
  await upstream?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

// biome-ignore lint/correctness/noEmptyPattern: Playwright reads the fixtures a hook needs from this pattern.
test.afterEach(async ({}, testInfo) => {
  if (testInfo.status !== testInfo.expectedStatus)
    await testInfo.attach('bff-output', { body: bff?.output() ?? '', contentType: 'text/plain' });
});

const count = new Intl.NumberFormat('en-US');

test('Refresh counts the payments that arrived and adds them to the totals, the list never blank', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const sandbox = upstream?.sandbox;
  if (!sandbox || !bff) throw new Error('no stack');
  const root = sandbox.tenants[0]?.rootCompanyId ?? '';
  const group = companiesUnder(sandbox, root);
  const oracle = () => walkSandbox(sandbox, group);
  const before: OracleRow[] = await oracle();

  const signIn = await page.request.post(`${bff.origin}/api/session`, {
    headers: { 'X-CSRF': '1' },
    data: { username: 'demo', password: PASSWORD },
  });
  expect(signIn.status()).toBe(200);
  await page.goto(`${bff.origin}/?company=${root}&group=true`);
  await expect(page.locator('tbody tr[data-row-id]').first()).toBeVisible();
  const figures = page.getByTestId('summary-count');
  await expect(figures).toHaveText(`${count.format(before.length)} payments`, { timeout: 30_000 });
  const totals = 'Totals per currency, all statuses';
  expect(await shownTotals(page, totals)).toEqual(totalsText(before));

  // payments arrive while the page is open
  sandbox.insertPayments(40);
  const after = await oracle();
  const known = new Set(before.map(keyOf));
  const arrived = after.filter((row) => !known.has(keyOf(row)));
  expect(arrived.length).toBeGreaterThan(0);

  // from the click until the new figures are in, every frame shows rows and figures
  await page.evaluate(() => {
    const watch = { frames: 0, blankRows: 0, blankFigures: 0, done: false };
    (window as unknown as { watch: typeof watch }).watch = watch;
    const look = () => {
      if (watch.done) return;
      watch.frames++;
      if (document.querySelectorAll('tbody tr[data-row-id]').length === 0) watch.blankRows++;
      if (!document.querySelector('[data-testid="summary-count"]')) watch.blankFigures++;
      requestAnimationFrame(look);
    };
    requestAnimationFrame(look);
  });
  await page.getByRole('button', { name: 'Refresh' }).click();
  await expect(figures).toHaveText(`${count.format(after.length)} payments`, { timeout: 30_000 });
  await expect.poll(() => shownTotals(page, totals)).toEqual(totalsText(after));
  // the newest payment is one that arrived, first in the list
  const newest = new Set(arrived.map(keyOf));
  const first = page.locator('tbody tr[data-row-id]').first();
  await expect
    .poll(async () =>
      newest.has(`${await first.getAttribute('data-company-id')}/${await first.getAttribute('data-row-id')}`),
    )
    .toBe(true);
  const watch = await page.evaluate(() => {
    const seen = (window as unknown as { watch: { frames: number; done: boolean } }).watch;
    seen.done = true;
    return seen;
  });
  expect(watch.frames).toBeGreaterThan(5);
  expect(watch).toMatchObject({ blankRows: 0, blankFigures: 0 });
});
