import type { Sandbox } from '@payments/server/sandbox';
import { COMPANY_HEADER } from '@payments/shared';
import type { Page } from '@playwright/test';
import { expect } from './fixtures.ts';

/**
 * What the sandbox holds, read from a sandbox built in this process (the same seed and count as the one the
 * dashboard reads: the same rows) or from the very sandbox the dashboard reads, walked without the BFF. The
 * specs compare what the page shows with it; nothing expected is written by hand.
 */

export interface OracleRow {
  id: string;
  company_id: string;
  status: string;
  amount: number;
  currency: string;
  /** The upstream's zone-less wall time, meant in PAYMENTS_TIME_ZONE. */
  created_at: string;
  counterparty: string | null;
  reference: string | null;
}

const AUTH = `Basic ${Buffer.from('sandbox_id:sandbox_secret').toString('base64')}`;

/** Every row of each company, newest first, each with its company, walked page by page through the sandbox's API. */
export async function walkSandbox(sandbox: Sandbox, companies: readonly string[]): Promise<OracleRow[]> {
  const rows: OracleRow[] = [];
  for (const company of companies) {
    let cursor: string | null = null;
    do {
      const query = cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`;
      const response = await sandbox.app.request(`/v1/payments/?limit=100${query}`, {
        headers: { authorization: AUTH, [COMPANY_HEADER]: company },
      });
      if (!response.ok) throw new Error(`sandbox ${company}: ${response.status} ${await response.text()}`);
      const page = (await response.json()) as { data: OracleRow[]; next_cursor: string | null };
      rows.push(...page.data.map((row) => ({ ...row, company_id: company })));
      cursor = page.next_cursor;
    } while (cursor !== null);
  }
  return rows;
}

/** The companies of the sandbox's first tenant under `root`, itself first. */
export function companiesUnder(sandbox: Sandbox, root: string): string[] {
  const companies = sandbox.tenants[0]?.companies ?? [];
  const under = [root];
  for (let i = 0; i < under.length; i++)
    for (const company of companies) if (company.parent_id === under[i]) under.push(company.id);
  return under;
}

/** Digits after the point per currency, as the sandbox writes minor units (JPY has none). */
const EXPONENT: Record<string, number> = { JPY: 0 };
const exponentOf = (currency: string) => EXPONENT[currency] ?? 2;

/** An amount in minor units as a decimal of major units, exact: 12345 EUR → `123.45`, 5 JPY → `5`. */
export function majorText(minor: number | bigint, currency: string): string {
  const digits = exponentOf(currency);
  const value = BigInt(minor);
  const sign = value < 0n ? '-' : '';
  const whole = (value < 0n ? -value : value).toString().padStart(digits + 1, '0');
  return digits === 0 ? `${sign}${whole}` : `${sign}${whole.slice(0, -digits)}.${whole.slice(-digits)}`;
}

/** A decimal string scaled to an integer of thousandths, to compare and add decimals exactly. */
export function thousandths(decimal: string): bigint {
  const [whole = '0', fraction = ''] = decimal.replace('-', '').split('.');
  const value = BigInt(whole) * 1000n + BigInt(`${fraction}000`.slice(0, 3));
  return decimal.startsWith('-') ? -value : value;
}

/** Per currency: how many rows, and their amounts added in minor units. */
function totalsOf(rows: readonly OracleRow[]): Map<string, { count: number; minor: bigint }> {
  const totals = new Map<string, { count: number; minor: bigint }>();
  for (const row of rows) {
    const total = totals.get(row.currency) ?? { count: 0, minor: 0n };
    totals.set(row.currency, { count: total.count + 1, minor: total.minor + BigInt(row.amount) });
  }
  return totals;
}

const counts = new Intl.NumberFormat('en-US');

/** The summary's totals line as the page reads it (en-US): `€1,234.50 in 12 payments`, one per currency, sorted. */
export function totalsText(rows: readonly OracleRow[]): string[] {
  return [...totalsOf(rows)]
    .map(([currency, { count, minor }]) => {
      const money = new Intl.NumberFormat('en-US', {
        style: 'currency',
        currency,
        maximumFractionDigits: 20,
      }).format(majorText(minor, currency) as unknown as number);
      return `${money} in ${counts.format(count)} ${count === 1 ? 'payment' : 'payments'}`;
    })
    .sort();
}

/** The texts of a summary's totals list, sorted. */
export async function shownTotals(page: Page, name: string): Promise<string[]> {
  const texts = await page.getByRole('list', { name }).locator('li').allTextContents();
  return texts.map((text) => text.replace(/\s+/g, ' ').trim()).sort();
}

/**
 * Every row the table holds, by scrolling it from top to bottom (it draws only what is seen): `company/id` where
 * rows name their company (a group, a search), the id alone in one company's list.
 */
export async function allShownRows(page: Page): Promise<string[]> {
  const scroller = page.locator('.grid-scroll');
  await scroller.evaluate((element) => element.scrollTo(0, 0));
  // The rows at the top are drawn a frame after the scroll that reached them: wait for the first one.
  const drawn = page.locator('tbody tr[data-row-id]');
  if ((await drawn.count()) > 0) await expect(drawn.and(page.locator('[aria-rowindex="2"]'))).toBeAttached();
  const byPosition = new Map<number, string>();
  const collect = async () => {
    const rows = await page.locator('tbody tr[data-row-id]').evaluateAll((elements) =>
      elements.map((row) => ({
        index: Number(row.getAttribute('aria-rowindex')),
        key: [row.getAttribute('data-company-id'), row.getAttribute('data-row-id')]
          .filter((part) => part !== null)
          .join('/'),
      })),
    );
    for (const row of rows) byPosition.set(row.index, row.key);
  };
  for (let step = 0; step < 200; step++) {
    await collect();
    const atEnd = await scroller.evaluate((el) => el.scrollTop + el.clientHeight >= el.scrollHeight - 2);
    if (atEnd) {
      // the last rows are drawn a frame after the scroll that reached them
      await page.waitForTimeout(150);
      await collect();
      break;
    }
    await scroller.evaluate((el) => el.scrollBy(0, el.clientHeight * 0.8));
    await page.waitForTimeout(60);
  }
  const positions = [...byPosition.keys()].sort((a, b) => a - b);
  expect(positions, 'every position from the first row on, none skipped').toEqual(
    positions.map((_, i) => i + 2),
  );
  return positions.map((position) => byPosition.get(position) ?? '');
}

export const keyOf = (row: Pick<OracleRow, 'company_id' | 'id'>) => `${row.company_id}/${row.id}`;
