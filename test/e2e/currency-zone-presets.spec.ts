import { readFile } from 'node:fs/promises';
import { createSandbox, type Sandbox } from '@payments/server/sandbox';
import type { Page } from '@playwright/test';
import { parse as parseCsv } from 'csv-parse/sync';
import { allViolations, expect, exportAs, test } from './fixtures.ts';
import { freePort, type OwnStack, startOwnStack } from './own-stack.ts';
import {
  allShownRows,
  companiesUnder,
  keyOf,
  majorText,
  type OracleRow,
  shownTotals,
  thousandths,
  totalsText,
  walkSandbox,
} from './sandbox-oracle.ts';
import { stack, stackEnv } from './stack.ts';

/**
 * The currency filter, the date presets and the zone times are shown in, on a stack of its own whose company
 * zone is Asia/Tokyo (the browser's is UTC, or New York): the sandbox's zone-less times are Tokyo's wall times.
 * The oracle is a sandbox built here with the same seed and count, walked in full.
 */

const ZONE = 'Asia/Tokyo';
const SEED_COUNT = 6_000;
let bff: OwnStack | undefined;
let sandbox: Sandbox | undefined;
let rows: OracleRow[] = [];

test.beforeAll(async () => {
  test.setTimeout(90_000);
  sandbox = createSandbox({ seedCount: SEED_COUNT });
  rows = await walkSandbox(sandbox, companiesUnder(sandbox, 'acme'));
  bff = await startOwnStack({
    ...stackEnv({ PAYMENTS_TIME_ZONE: ZONE, SANDBOX_SEED_COUNT: String(SEED_COUNT) }),
    SANDBOX_PORT: String(await freePort()),
  });
});

test.afterAll(async () => {
  await bff?.stop();
  sandbox?.close();
});

// biome-ignore lint/correctness/noEmptyPattern: Playwright reads the fixtures a hook needs from this pattern.
test.afterEach(async ({}, testInfo) => {
  if (testInfo.status !== testInfo.expectedStatus)
    await testInfo.attach('bff-output', { body: bff?.output() ?? '', contentType: 'text/plain' });
});

async function open(page: Page, path: string): Promise<void> {
  const origin = bff?.origin ?? '';
  const signIn = await page.request.post(`${origin}/api/session`, {
    headers: { 'X-CSRF': '1' },
    data: { username: stack.username, password: stack.password },
  });
  expect(signIn.status()).toBe(200);
  await page.goto(`${origin}${path}`);
}

/** The rows of `companies` whose wall time lies in [from, to]. */
const within = (companies: readonly string[], from: string, to: string) =>
  rows.filter((row) => companies.includes(row.company_id) && row.created_at >= from && row.created_at <= to);

/** An instant's wall time in a zone, `YYYY-MM-DDTHH:MM:SS`, as Intl reads the zone's rules. */
function wallIn(instant: number, zone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(instant)
      .map((part) => [part.type, part.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}`;
}

/** A Tokyo wall time (UTC+9 all year) as an instant. */
const tokyo = (wall: string) => Date.parse(`${wall}+09:00`);

test('the currencies chosen filter the list, the figures and the CSV alike, to the cent', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const group = companiesUnder(sandbox as Sandbox, 'acme-eu');
  const may = { from: '2026-05-01T00:00:00', to: '2026-05-31T23:59:59' };
  const chosen = ['EUR', 'GBP'];
  const expected = within(group, may.from, may.to).filter((row) => chosen.includes(row.currency));
  expect(expected.length).toBeGreaterThan(10);
  expect(expected.length).toBeLessThan(100);
  await open(page, `/?company=acme-eu&group=true&date_from=${may.from}&date_to=${may.to}&limit=100`);
  await expect(page.locator('tbody tr[data-row-id]').first()).toBeVisible();

  await page.getByRole('button', { name: /^Currency/ }).click();
  for (const currency of chosen) await page.getByRole('checkbox', { name: currency }).check();
  await page.keyboard.press('Escape');
  await expect.poll(() => new URL(page.url()).searchParams.get('currency')).toBe(chosen.join(','));
  await expect(page.getByRole('button', { name: /^Currency/ })).toHaveText(chosen.join(', '));

  // the list: every payment of those currencies, no other
  await expect(page.getByTestId('list-status')).toContainText('end of list', { timeout: 30_000 });
  expect((await allShownRows(page)).sort()).toEqual(expected.map(keyOf).sort());
  // the figures: the same count, and each currency's total to the cent
  await expect(page.getByTestId('summary-count')).toHaveText(
    `${new Intl.NumberFormat('en-US').format(expected.length)} payments`,
    { timeout: 30_000 },
  );
  expect(await shownTotals(page, 'Totals per currency, all statuses')).toEqual(totalsText(expected));

  // the file: the same payments, whose amounts add up to the same totals
  const asked = page.waitForRequest((request) => request.url().includes('/api/payments/export.csv'));
  const download = page.waitForEvent('download');
  await exportAs(page, 'CSV, all columns');
  expect(new URL((await asked).url()).searchParams.get('currency')).toBe(chosen.join(','));
  const file = await download;
  const records = parseCsv(await readFile(await file.path(), 'utf8'), {
    bom: true,
    columns: true,
    skip_empty_lines: true,
  }) as Record<string, string>[];
  expect(records.map((record) => `${record['Company ID']}/${record['Payment ID']}`).sort()).toEqual(
    expected.map(keyOf).sort(),
  );
  const sums = new Map<string, bigint>();
  for (const record of records)
    sums.set(
      record.Currency ?? '',
      (sums.get(record.Currency ?? '') ?? 0n) + thousandths(record.Amount ?? ''),
    );
  const oracleSums = new Map<string, bigint>();
  for (const row of expected)
    oracleSums.set(
      row.currency,
      (oracleSums.get(row.currency) ?? 0n) + thousandths(majorText(row.amount, row.currency)),
    );
  expect(Object.fromEntries(sums)).toEqual(Object.fromEntries(oracleSums));
});

test("each preset is its range of whole days in the company's zone, on a fixed clock, and says its dates", async ({
  page,
}) => {
  test.setTimeout(120_000);
  // 18:30 UTC on 20 May is 03:30 on 21 May in Tokyo: "today" is the 21st there, not the 20th
  const now = new Date('2026-05-20T18:30:00Z');
  await page.clock.setFixedTime(now);
  const today = wallIn(now.getTime(), ZONE).slice(0, 10);
  expect(today).toBe('2026-05-21');
  const [y, m, d] = today.split('-').map(Number) as [number, number, number];
  const day = (year: number, month: number, date: number) => new Date(Date.UTC(year, month - 1, date));
  const iso = (date: Date) => date.toISOString().slice(0, 10);
  const quarter = m - ((m - 1) % 3);
  const presets: Record<string, [Date, Date]> = {
    Today: [day(y, m, d), day(y, m, d)],
    'Last 7 days': [day(y, m, d - 6), day(y, m, d)],
    'Last 30 days': [day(y, m, d - 29), day(y, m, d)],
    'This month': [day(y, m, 1), day(y, m + 1, 0)],
    'Last month': [day(y, m - 1, 1), day(y, m, 0)],
    'This quarter': [day(y, quarter, 1), day(y, quarter + 3, 0)],
    'Last quarter': [day(y, quarter - 3, 1), day(y, quarter, 0)],
    'Year to date': [day(y, 1, 1), day(y, m, d)],
    'Last year': [day(y - 1, 1, 1), day(y - 1, 12, 31)],
  };
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const said = (date: Date, year: boolean) =>
    `${date.getUTCDate()} ${months[date.getUTCMonth()]}${year ? ` ${date.getUTCFullYear()}` : ''}`;

  await open(page, '/?company=acme-eu-de&limit=100');
  await expect(page.locator('tbody tr[data-row-id]').first()).toBeVisible();
  const range = page.getByRole('combobox', { name: 'Range' });
  for (const [preset, [first, last]] of Object.entries(presets)) {
    await range.selectOption(preset);
    const from = `${iso(first)}T00:00:00`;
    const to = `${iso(last)}T23:59:59`;
    await expect.poll(() => new URL(page.url()).searchParams.get('date_from'), preset).toBe(from);
    expect(new URL(page.url()).searchParams.get('date_to'), preset).toBe(to);
    await expect(range).toHaveValue(preset);
    const dates =
      iso(first) === iso(last)
        ? said(last, true)
        : `${said(first, first.getUTCFullYear() !== last.getUTCFullYear())} – ${said(last, true)}`;
    await expect(range.locator('option:checked')).toHaveText(`${preset} · ${dates}`);
    // the fields show the days the preset means, in the company's zone
    await expect(page.getByLabel(/^Created from/)).toHaveValue(iso(first));
    await expect(page.getByLabel(/^Created to/)).toHaveValue(iso(last));
    if (preset === 'Last 7 days') {
      const expected = within(['acme-eu-de'], from, to);
      expect(expected.length).toBeGreaterThan(0);
      await expect(page.getByTestId('list-status')).toContainText('end of list');
      expect(await allShownRows(page)).toEqual(expected.map((row) => row.id));
    }
  }
});

test.describe('in a browser in New York', () => {
  test.use({ timezoneId: 'America/New_York' });

  test("times switch to the zone chosen, the rows stay, typed dates are that zone's and the export names it", async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const range = { from: '2026-05-10T00:00:00', to: '2026-05-20T23:59:59' };
    const expected = within(['acme-eu-de'], range.from, range.to);
    expect(expected.length).toBeGreaterThan(3);
    const path = `/?company=acme-eu-de&date_from=${range.from}&date_to=${range.to}`;
    await open(page, path);
    await expect(page.locator('tbody tr[data-row-id]').first()).toBeVisible();
    const created = page.locator('tbody tr[data-row-id] [data-column="created_at"]');
    const wallsShown = async () =>
      (await created.allTextContents()).map((text) => text.slice(0, 19).replace(' ', 'T'));
    // the company's zone by default: the sandbox's wall times as they are
    await expect(page.getByRole('columnheader', { name: `Created (${ZONE})` })).toBeVisible();
    const drawn = await created.count();
    expect(drawn).toBeGreaterThan(0);
    expect(await wallsShown()).toEqual(expected.slice(0, drawn).map((r) => r.created_at));
    const before = await allShownRows(page);
    expect(before).toEqual(expected.map((row) => row.id));

    await page.getByRole('button', { name: /^Times in/ }).click();
    await page.getByRole('radio', { name: "This browser's zone, America/New_York" }).check();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('columnheader', { name: 'Created (America/New_York)' })).toBeVisible();
    // the same view and the same rows, each at the same instant read in New York
    expect(new URL(page.url()).searchParams.get('date_from')).toBe(range.from);
    expect(await allShownRows(page)).toEqual(before);
    await page.locator('.grid-scroll').evaluate((element) => element.scrollTo(0, 0));
    const shown = await wallsShown();
    expect(shown).toEqual(
      expected.slice(0, shown.length).map((r) => wallIn(tokyo(r.created_at), 'America/New_York')),
    );
    expect(shown[0]).not.toBe(expected[0]?.created_at);
    await expect(page.getByLabel(/^Created from/)).toHaveValue(
      wallIn(tokyo(range.from), 'America/New_York').replace('T', ' '),
    );

    // a date typed now is New York's: the end of 15 May there is 12:59:59 on the 16th in Tokyo
    const to = page.getByLabel(/^Created to/);
    await to.fill('2026-05-15');
    await to.press('Enter');
    const tokyoTo = wallIn(Date.parse('2026-05-15T23:59:59-04:00'), ZONE);
    await expect.poll(() => new URL(page.url()).searchParams.get('date_to')).toBe(tokyoTo);
    await expect(page.getByTestId('list-status')).toContainText('end of list');
    expect(await allShownRows(page)).toEqual(
      within(['acme-eu-de'], range.from, tokyoTo).map((row) => row.id),
    );

    // remembered in this browser
    await page.reload();
    await expect(page.getByRole('columnheader', { name: 'Created (America/New_York)' })).toBeVisible();

    // both files are asked for in that zone; the CSV's header names it, and its times are New York's
    const workbook = page.waitForRequest((request) => request.url().includes('/api/payments/export.xlsx'));
    const xlsx = page.waitForEvent('download');
    await exportAs(page, 'Excel (XLSX), shown columns');
    expect(new URL((await workbook).url()).searchParams.get('tz')).toBe('America/New_York');
    await xlsx;
    const download = page.waitForEvent('download');
    await exportAs(page, 'CSV, shown columns');
    const records = parseCsv(await readFile(await (await download).path(), 'utf8'), {
      bom: true,
      columns: true,
      skip_empty_lines: true,
    }) as Record<string, string>[];
    const column = 'Created (America/New_York)';
    expect(Object.keys(records[0] ?? {})).toContain(column);
    const inRange = within(['acme-eu-de'], range.from, tokyoTo);
    expect(records.map((record) => (record[column] ?? '').slice(0, 19))).toEqual(
      inRange.map((r) => wallIn(tokyo(r.created_at), 'America/New_York')),
    );
  });

  test('axe finds no violation of any impact with the zone menu open', async ({ page }) => {
    test.setTimeout(90_000);
    await open(page, '/?company=acme-eu-de');
    await expect(page.locator('tbody tr[data-row-id]').first()).toBeVisible();
    await page.getByRole('button', { name: /^Times in/ }).click();
    await expect(page.getByRole('radio', { name: `The company's zone, ${ZONE}` })).toBeFocused();
    expect(await allViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await expect(page.getByRole('button', { name: /^Times in/ })).toBeFocused();
  });
});
