import { readFile } from 'node:fs/promises';
import { createSandbox } from '@payments/server/sandbox';
import { COMPANY_HEADER } from '@payments/shared';
import type { Page } from '@playwright/test';
import { parse as parseCsv } from 'csv-parse/sync';
import { expect, exportAs, test } from './fixtures.ts';
import { freePort, type OwnStack, startOwnStack } from './own-stack.ts';

/**
 * The dashboard on the remote profile: its own stack whose embedded sandbox answers every page 100 ms late and at
 * most 40 requests a second (429 beyond), the BFF held to the same 40 by UPSTREAM_MAX_RPS. A month a year back, its
 * summary and a group's export through the dashboard equal what the sandbox holds: the same seed built in this
 * process and walked without a network is the oracle (the faulted sandbox's one budget is left to the BFF).
 */

const SEED_COUNT = 8_000;
const PASSWORD = 'remote-e2e-password';
const AUTH = `Basic ${Buffer.from('sandbox_id:sandbox_secret').toString('base64')}`;
const count = new Intl.NumberFormat('en-US');

interface Row {
  id: string;
  company_id: string;
  created_at: string;
  status: string;
}

let bff: OwnStack | undefined;
let origin = '';
let oracle = new Map<string, Row[]>();

/** Every row of every company of the first tenant, newest first, walked in this process. */
async function oracleRows(): Promise<Map<string, Row[]>> {
  const sandbox = createSandbox({ seedCount: SEED_COUNT });
  try {
    const rows = new Map<string, Row[]>();
    for (const { id: company } of sandbox.tenants[0]?.companies ?? []) {
      const list: Row[] = [];
      let cursor: string | null = null;
      do {
        const query = cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`;
        const response = await sandbox.app.request(`/v1/payments/?limit=100${query}`, {
          headers: { authorization: AUTH, [COMPANY_HEADER]: company },
        });
        const page = (await response.json()) as { data: Row[]; next_cursor: string | null };
        list.push(...page.data);
        cursor = page.next_cursor;
      } while (cursor !== null);
      rows.set(company, list);
    }
    return rows;
  } finally {
    sandbox.close();
  }
}

function rowsOf(company: string): Row[] {
  const rows = oracle.get(company);
  if (!rows || rows.length === 0) throw new Error(`the oracle has no rows of ${company}`);
  return rows;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The calendar month twelve months before the month of `newest` (a `created_at`). */
function monthAYearBack(newest: string): { from: string; to: string } {
  const year = Number(newest.slice(0, 4)) - 1;
  const month = Number(newest.slice(5, 7));
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return { from: `${year}-${pad(month)}-01T00:00:00`, to: `${year}-${pad(month)}-${pad(last)}T23:59:59` };
}

const within = (rows: readonly Row[], range: { from: string; to: string }) =>
  rows.filter((row) => row.created_at >= range.from && row.created_at <= range.to);

test.beforeAll(async () => {
  test.setTimeout(90_000);
  oracle = await oracleRows();
  bff = await startOwnStack({
    SANDBOX_PORT: String(await freePort()),
    SANDBOX_SEED_COUNT: String(SEED_COUNT),
    // The oracle's (createSandbox's default) end: the data stops on 31 May 2026.
    SANDBOX_SEED_END: '2026-06-01T00:00:00Z',
    SANDBOX_LIVE_RATE: '0',
    SANDBOX_FAULTS: 'latency_ms=100,rate_limit_rps=40',
    UPSTREAM_MAX_RPS: '40',
    APP_SECRET: 'remote-e2e-fixed-app-secret-0123456789abcdef',
    DEMO_PASSWORD: PASSWORD,
    PAYMENTS_TIME_ZONE: 'UTC',
  });
  origin = bff.origin;
});

test.afterAll(async () => {
  await bff?.stop();
});

// biome-ignore lint/correctness/noEmptyPattern: Playwright reads the fixtures a hook needs from this pattern.
test.afterEach(async ({}, testInfo) => {
  if (testInfo.status !== testInfo.expectedStatus)
    await testInfo.attach('bff-output', { body: bff?.output() ?? '', contentType: 'text/plain' });
});

/** Signs in through the sign-in page (as a person would), landing on `path`. */
async function signInTo(page: Page, path: string): Promise<void> {
  await page.goto(`${origin}${path}`);
  await expect(page).toHaveURL(/\/sign-in/);
  await page.getByLabel('Username').fill('demo');
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

test('a month a year back lists and counts exactly what the sandbox holds, 100 ms away at 40 requests/s', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const company = 'acme-eu-de';
  const all = rowsOf(company);
  const range = monthAYearBack(all[0]?.created_at ?? '');
  const expected = within(all, range);
  expect(expected.length).toBeGreaterThan(20);
  await signInTo(
    page,
    `/?company=${company}&date_from=${range.from}&date_to=${range.to}`.replaceAll(':', '%3A'),
  );
  const first = page.locator('tbody tr[data-row-id]').first();
  await expect(first).toBeVisible({ timeout: 30_000 });
  const shown = await page.locator('tbody tr[data-row-id]').evaluateAll((rows) =>
    rows
      .map((row) => ({
        index: Number(row.getAttribute('aria-rowindex')),
        id: row.getAttribute('data-row-id'),
      }))
      .sort((a, b) => a.index - b.index)
      .map((row) => row.id),
  );
  expect(shown.length).toBeGreaterThan(5);
  expect(shown).toEqual(expected.slice(0, shown.length).map((row) => row.id));

  const summary = page.getByRole('region', { name: 'Summary' });
  await expect(summary.getByTestId('summary-count')).toHaveText(`${count.format(expected.length)} payments`, {
    timeout: 45_000,
  });
  const perStatus = new Map<string, number>();
  for (const row of expected) perStatus.set(row.status, (perStatus.get(row.status) ?? 0) + 1);
  for (const [status, n] of perStatus)
    await expect(summary.getByRole('list', { name: 'Payments per status' })).toContainText(
      new RegExp(`${status}\\s*${count.format(n)}`, 'i'),
    );
});

test("a group's export holds every payment of its companies in the range, newest first, once each", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const members = ['acme-eu', 'acme-eu-de', 'acme-eu-fr'];
  const newest =
    members
      .map((company) => rowsOf(company)[0]?.created_at ?? '')
      .sort()
      .at(-1) ?? '';
  // From the first of January of the year before the group's newest payment, to the end.
  const range = { from: `${Number(newest.slice(0, 4)) - 1}-01-01T00:00:00`, to: '9999-12-31T23:59:59' };
  const expected = members.flatMap((company) =>
    within(rowsOf(company), range).map((row) => ({ ...row, company_id: company })),
  );
  expect(expected.length).toBeGreaterThan(1_000);
  await signInTo(page, `/?company=acme-eu&group=true&date_from=${range.from}`.replaceAll(':', '%3A'));
  await expect(page.locator('tbody tr[data-row-id]').first()).toBeVisible({ timeout: 30_000 });

  const download = page.waitForEvent('download', { timeout: 60_000 });
  await exportAs(page, 'CSV, all columns');
  const file = await download;
  const text = await readFile(await file.path(), 'utf8');
  const records = parseCsv(text, { bom: true, columns: true, skip_empty_lines: true }) as Record<
    string,
    string
  >[];
  const key = (row: { company_id?: string; id?: string }) => `${row.company_id} ${row.id}`;
  // The file's header is the table's labels.
  const fileKey = (record: Record<string, string>) => `${record['Company ID']} ${record['Payment ID']}`;
  expect(records.map(fileKey).sort()).toEqual(expected.map(key).sort());
  expect(new Set(records.map(fileKey)).size).toBe(records.length);
  const times = records.map((record) => record['Created, UTC (ISO 8601)'] ?? '');
  expect(times).toEqual([...times].sort().reverse());
});
