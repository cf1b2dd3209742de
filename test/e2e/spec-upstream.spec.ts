import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { type SpecUpstream, startSpecUpstream } from '@payments/server/testing/spec-upstream';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { type OwnStack, startOwnStack } from './own-stack.ts';

/**
 * The whole product in Chromium against the upstream written from the spec alone (decimal-string and integer
 * amounts, missing ones, numeric and UUID ids, statuses beyond the known four, nested objects), not the sandbox.
 * This file starts its own BFF (`node server/src/main.ts`) on that upstream; the config's stack is not used.
 */

type Row = Record<string, unknown>;

const credentials = { secretId: 'spec-e2e-client', secretPassword: 'spec e2e pa~ss/wörd?!' };
const user = { username: 'fin', password: 'fin-e2e-password-0123' };
const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

let upstream: SpecUpstream;
let bff: OwnStack | undefined;
let origin = '';
let dir = '';

test.beforeAll(async () => {
  upstream = await startSpecUpstream({ credentials });
  dir = await mkdtemp(join(tmpdir(), 'spec-upstream-e2e-'));
  const companiesFile = join(dir, 'companies.json');
  const usersFile = join(dir, 'users.json');
  await writeFile(companiesFile, JSON.stringify(upstream.companies));
  // The users file as an operator makes it: `pnpm user:add`, the password from USER_ADD_PASSWORD.
  await promisify(execFile)(
    process.execPath,
    ['server/src/cli/user-add.ts', '--file', usersFile, '--username', user.username, '--all'],
    { cwd: repoRoot, env: { PATH: process.env.PATH ?? '', USER_ADD_PASSWORD: user.password } },
  );
  bff = await startOwnStack({
    PAYMENTS_BASE_URL: upstream.baseUrl,
    PAYMENTS_SECRET_ID: credentials.secretId,
    PAYMENTS_SECRET_PASSWORD: credentials.secretPassword,
    PAYMENTS_COMPANIES_FILE: companiesFile,
    AUTH_USERS_FILE: usersFile,
    APP_SECRET: 'spec-upstream-e2e-secret-0123456789abcdef0123',
    PAYMENTS_TIME_ZONE: 'Europe/Berlin',
  });
  origin = bff.origin;
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

function rootId(): string {
  return upstream.companies.find((company) => company.parent_id === null)?.id ?? '';
}

/** Signs in through the sign-in page, landing on `path`. */
async function signInThroughPage(page: Page, path = '/'): Promise<void> {
  await page.goto(`${origin}${path}`);
  await expect(page).toHaveURL(/\/sign-in/);
  await page.getByLabel('Username').fill(user.username);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.locator('tbody tr[data-row-id]').first()).toBeVisible();
}

interface ShownRow {
  index: number;
  id: string;
  cells: Record<string, string>;
  /** Columns whose content is wider than the cell shows (cut off by the ellipsis). */
  clipped: string[];
}

async function shownRows(page: Page): Promise<ShownRow[]> {
  return page.locator('tbody tr[data-row-id]').evaluateAll((rows) =>
    rows.map((row) => {
      const cells: Record<string, string> = {};
      const clipped: string[] = [];
      for (const cell of row.querySelectorAll<HTMLElement>('[data-column]')) {
        const column = cell.dataset.column ?? '';
        cells[column] = (cell.textContent ?? '').replace(/\s+/g, ' ').trim();
        const content = cell.firstElementChild?.getBoundingClientRect();
        const box = cell.getBoundingClientRect();
        if (cell.scrollWidth > cell.clientWidth + 1 || (content && content.right > box.right + 0.5))
          clipped.push(column);
      }
      return {
        index: Number(row.getAttribute('aria-rowindex')),
        id: row.getAttribute('data-row-id') ?? '',
        cells,
        clipped,
      };
    }),
  );
}

/** Scrolls the table to its end, loading every page; each row as drawn, by its position in the list. */
async function scrollToEnd(page: Page): Promise<ShownRow[]> {
  const byPosition = new Map<number, ShownRow>();
  const scroller = page.locator('.grid-scroll');
  const lastDrawn = async () => {
    const rows = await shownRows(page);
    for (const row of rows) byPosition.set(row.index, row);
    return Math.max(0, ...rows.map((row) => row.index));
  };
  const atBottom = () => scroller.evaluate((el) => el.scrollTop + el.clientHeight >= el.scrollHeight - 2);
  for (let step = 0; step < 200; step += 1) {
    // The end is read before the rows: rows drawn with the last page are then collected on this same step.
    const status = (await page.getByTestId('list-status').textContent()) ?? '';
    const atEnd = (await atBottom()) && status.includes('end of list');
    const last = await lastDrawn();
    if (atEnd) break;
    await scroller.evaluate((el) => el.scrollBy(0, el.clientHeight * 0.8));
    // Further rows are drawn once the scroll lands or, at the end of what is loaded, once the next page is in;
    // the last stretch of the scroll may only reach the bottom, with every row drawn already.
    await expect
      .poll(async () => (await lastDrawn()) > last || (await atBottom()), { timeout: 10_000 })
      .toBe(true);
  }
  return [...byPosition.entries()].sort(([a], [b]) => a - b).map(([, row]) => row);
}

/**
 * Scrolls the table from the top until the row of `id` is drawn in the middle of the view (the table draws only
 * the rows in view), moving the table's own scroller as a user would rather than the row element.
 */
async function scrollToRow(page: Page, id: string) {
  const scroller = page.locator('.grid-scroll');
  const row = page.locator(`tr[data-row-id="${id}"]`);
  await scroller.evaluate((el) => el.scrollTo(0, 0));
  for (let step = 0; step < 200; step += 1) {
    if ((await row.count()) === 0) {
      await scroller.evaluate((el) => el.scrollBy(0, el.clientHeight * 0.8));
    } else {
      const centred = await row.evaluate((tr) => {
        const view = tr.closest('.grid-scroll');
        if (!view) return false;
        const box = view.getBoundingClientRect();
        const offset = tr.getBoundingClientRect().top - box.top - box.height / 2;
        if (Math.abs(offset) < box.height / 4) return true;
        view.scrollTop += offset;
        return false;
      });
      if (centred) return row;
    }
    await page.waitForTimeout(80);
  }
  throw new Error(`row ${id} never came into view`);
}

/** The amount as an exact major-unit decimal (ISO 4217 digits via Intl), or null when the record has none. */
function majorDecimal(amount: unknown, currency: string): string | null {
  const exponent =
    new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  if (typeof amount === 'number' && Number.isSafeInteger(amount)) {
    const minor = BigInt(amount);
    const scale = 10n ** BigInt(exponent);
    const magnitude = minor < 0n ? -minor : minor;
    const fraction = (magnitude % scale).toString().padStart(exponent, '0');
    return `${minor < 0n ? '-' : ''}${magnitude / scale}${exponent === 0 ? '' : `.${fraction}`}`;
  }
  if (typeof amount === 'string' && /^-?\d+(\.\d+)?$/.test(amount)) {
    const [whole = '', fraction = ''] = amount.split('.');
    const digits = fraction.padEnd(exponent, '0');
    return digits === '' ? whole : `${whole}.${digits}`;
  }
  return null;
}

/** en-US money text of exact decimals, by the page's own Intl (so ICU versions cannot differ). */
async function moneyTexts(page: Page, amounts: { decimal: string; currency: string }[]): Promise<string[]> {
  const texts = await page.evaluate(
    (list) =>
      list.map(({ decimal, currency }) =>
        new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(decimal as `${number}`),
      ),
    amounts,
  );
  return texts.map((text) => text.replace(/\s+/g, ' ').trim());
}

test('lists every payment of the root company, in the upstream’s order, amounts formatted or left empty', async ({
  page,
}, testInfo) => {
  const expected = upstream.expected(rootId());
  await signInThroughPage(page, '/?limit=100');
  const first = await page.locator('tbody tr[data-row-id]').first().getAttribute('data-row-id');
  expect(first).toBe(String(expected[0]?.id));
  await page.screenshot({ path: testInfo.outputPath('spec-upstream-list.png') });

  const shown = await scrollToEnd(page);
  await page.screenshot({ path: testInfo.outputPath('spec-upstream-list-end.png') });
  expect(shown.map((row) => row.index)).toEqual(shown.map((_, i) => i + 2));
  expect(shown.map((row) => row.id)).toEqual(expected.map((record) => String(record.id)));

  const byId = new Map(shown.map((row) => [row.id, row]));
  const money = expected.flatMap((record) => {
    const decimal = majorDecimal(record.amount, String(record.currency));
    return decimal === null ? [] : [{ record, decimal, currency: String(record.currency) }];
  });
  const texts = await moneyTexts(page, money);
  const wrong = (kind: 'string' | 'number') =>
    money.flatMap(({ record }, i) => {
      const cell = byId.get(String(record.id))?.cells.amount;
      return typeof record.amount === kind && cell !== texts[i]
        ? [{ id: record.id, amount: record.amount, currency: record.currency, shown: cell, want: texts[i] }]
        : [];
    });
  const decimals = money.filter(({ record }) => typeof record.amount === 'string');
  expect(decimals.length).toBeGreaterThan(100);
  // Some carry fewer digits than the currency has ("1234.5" EUR must show €1,234.50).
  const short = decimals.filter(({ record, currency }) => {
    const fraction = String(record.amount).split('.')[1] ?? '';
    return fraction.length < (majorDecimal('0', currency)?.split('.')[1] ?? '').length;
  });
  expect(short.length).toBeGreaterThan(0);
  expect.soft(wrong('string'), 'decimal-string amounts formatted as money').toEqual([]);
  expect.soft(wrong('number'), 'integer amounts read as minor units and formatted').toEqual([]);

  // A row whose amount is missing or null still shows its id, status and time, and an empty amount.
  const empty = expected.filter((record) => record.amount === null || record.amount === undefined);
  expect(empty.length).toBeGreaterThan(5);
  for (const record of empty) {
    const row = byId.get(String(record.id));
    expect.soft(row?.cells.amount, `amount of ${record.id} (${JSON.stringify(record.amount)})`).toBe('');
    expect.soft(row?.cells.status, `status of ${record.id}`).toBe(record.status);
    expect.soft(row?.cells.created_at ?? '', `created_at of ${record.id}`).toMatch(/^2026-\d\d-\d\d /);
  }
});

test('shows an amount it cannot read as it was sent, and the rest of the row as usual', async ({ page }) => {
  // The spec upstream sends only readable amounts or none; these shapes are put into the BFF's first page.
  const odd: unknown[] = ['12,50', '1e3', ' 12.50', { value: '12.50', currency: 'EUR' }, true, [1250]];
  await page.route('**/api/payments?*', async (route) => {
    const response = await route.fetch();
    if (response.status() !== 200) return route.fulfill({ response });
    const body = (await response.json()) as { data: Row[] };
    if (!new URL(route.request().url()).searchParams.has('cursor'))
      odd.forEach((amount, i) => {
        if (body.data[i]) body.data[i].amount = amount;
      });
    await route.fulfill({ response, json: body });
  });
  const expected = upstream.expected(rootId()).slice(0, odd.length);
  await signInThroughPage(page, '/?limit=100');
  const rows = new Map((await shownRows(page)).map((row) => [row.id, row]));
  for (const [i, record] of expected.entries()) {
    const row = rows.get(String(record.id));
    const raw = typeof odd[i] === 'string' ? (odd[i] as string).trim() : JSON.stringify(odd[i]);
    expect.soft(row?.cells.amount, `amount ${JSON.stringify(odd[i])} of ${record.id}`).toBe(raw);
    expect.soft(row?.cells.status, `status of ${record.id}`).toBe(record.status);
    expect.soft(row?.cells.currency, `currency of ${record.id}`).toBe(record.currency);
  }
});

test('shows a long status the dashboard does not know in full, and a lower-case one as sent', async ({
  page,
}, testInfo) => {
  const expected = upstream.expected(rootId());
  await signInThroughPage(page, '/?limit=100');
  await page.screenshot({ path: testInfo.outputPath('spec-upstream-statuses.png') });
  const shown = await scrollToEnd(page);
  expect(shown.map((row) => row.id)).toEqual(expected.map((record) => String(record.id)));
  const byId = new Map(shown.map((row) => [row.id, row]));
  for (const status of ['PARTIALLY_REFUNDED_PENDING_REVIEW', 'chargeback_open']) {
    const records = expected.filter((record) => record.status === status);
    expect(records.length).toBeGreaterThan(3);
    for (const record of records) {
      const row = byId.get(String(record.id));
      expect(row?.cells.status).toBe(status);
      expect(row?.clipped ?? [], `status cell of ${record.id} is cut off`).not.toContain('status');
    }
  }
});

test('filters by a status the upstream returns beyond the known four', async ({ page }) => {
  const status = 'PARTIALLY_REFUNDED_PENDING_REVIEW';
  const expected = upstream.expected(rootId(), { status });
  await signInThroughPage(page, '/?limit=100');
  const choice = page.locator('.status-choice .menu-button__button');
  await expect(page.locator('tbody tr[data-row-id]').first()).toBeVisible();
  await choice.click();
  // Offered once seen in the loaded rows.
  const only = page.getByRole('button', { name: `Only ${status}` });
  await expect(only).toHaveCount(1);
  await only.click();
  await choice.click();
  await expect
    .soft(page, 'the address keeps the chosen status')
    .toHaveURL(new RegExp(`[?&]status=${status}`));
  await expect.soft(choice, 'the filter keeps the chosen status').toHaveText(status);
  await expect(page.locator('tbody tr[data-row-id]').first()).toHaveAttribute(
    'data-row-id',
    String(expected[0]?.id),
  );
  const shown = await scrollToEnd(page);
  expect(shown.map((row) => row.id)).toEqual(expected.map((record) => String(record.id)));
});

/** Every primitive inside a JSON value, as text: what a view of the value must show somewhere. */
function leaves(value: unknown): string[] {
  if (value === null || typeof value !== 'object') return [String(value)];
  return Object.values(value).flatMap(leaves);
}

test('a row’s drawer shows the record with its nested metadata and counterparty and its decimal amount as money', async ({
  page,
}, testInfo) => {
  const expected = upstream.expected(rootId());
  const index = expected.findIndex(
    (record) =>
      typeof record.amount === 'string' &&
      typeof record.counterparty === 'object' &&
      record.counterparty !== null &&
      typeof record.metadata === 'object' &&
      record.metadata !== null &&
      ((record.metadata as { lines?: unknown[] }).lines?.length ?? 0) > 0,
  );
  const record = expected[index] as Row;
  expect(record).toBeDefined();
  const id = String(record.id);
  await signInThroughPage(page, '/?limit=100');
  await (await scrollToRow(page, id)).getByRole('link', { name: id }).click();
  const drawer = page.getByRole('dialog', { name: `Payment ${id}` });
  await expect(drawer).toBeVisible();

  const [money] = await moneyTexts(page, [
    {
      decimal: majorDecimal(record.amount, String(record.currency)) ?? '',
      currency: String(record.currency),
    },
  ]);
  const amount = drawer.locator('dd[data-field="amount"]');
  await expect.soft(amount).toContainText(money ?? '');
  await expect.soft(amount).toContainText(String(record.amount));
  for (const field of ['counterparty', 'metadata'] as const) {
    const dd = drawer.locator(`dd[data-field="${field}"]`);
    await expect.soft(dd, `${field} is shown`).toHaveCount(1);
    const text = (await dd.textContent()) ?? '';
    for (const leaf of leaves(record[field])) expect.soft(text, `${field} shows ${leaf}`).toContain(leaf);
  }
  for (const field of ['id', 'status', 'currency', 'created_at', 'reference'])
    await expect.soft(drawer.locator(`dd[data-field="${field}"]`), `${field} is shown`).toHaveCount(1);
  await page.screenshot({ path: testInfo.outputPath('spec-upstream-drawer.png') });
});
