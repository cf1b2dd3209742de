import { createSandbox, type Sandbox } from '@payments/server/sandbox';
import type { Page } from '@playwright/test';
import { allViolations, expect, signInByApi, test } from './fixtures.ts';
import {
  allShownRows,
  companiesUnder,
  keyOf,
  majorText,
  type OracleRow,
  thousandths,
  walkSandbox,
} from './sandbox-oracle.ts';
import { stack } from './stack.ts';

/**
 * Finding payments through the search field, on the shared stack. The oracle is the sandbox itself: one built in
 * this process with the stack's seed and count holds the very rows the stack's does, walked here in full and
 * searched with the rules the README gives (id, reference or counterparty containing the text, case and accents
 * aside; an amount as the table shows it, or a range of them).
 */

const GROUP = 'acme-eu';
const MAY = { from: '2026-05-01T00:00:00', to: '2026-05-31T23:59:59' };
const VIEW = `/?company=${GROUP}&group=true&date_from=${MAY.from}&date_to=${MAY.to}`;

let sandbox: Sandbox | undefined;
let tenant: OracleRow[] = [];
let view: OracleRow[] = [];

test.beforeAll(async () => {
  test.setTimeout(90_000);
  sandbox = createSandbox({ seedCount: stack.seedCount });
  tenant = await walkSandbox(sandbox, companiesUnder(sandbox, 'acme'));
  const members = new Set(companiesUnder(sandbox, GROUP));
  view = tenant.filter(
    (row) => members.has(row.company_id) && row.created_at >= MAY.from && row.created_at <= MAY.to,
  );
});

test.afterAll(() => sandbox?.close());

test.beforeEach(async ({ page }) => {
  await signInByApi(page);
});

/** Text as a person compares it: accents and case aside. */
const folded = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().trim();

/** The rows of `rows` a search for `q` finds, by the README's rules, read independently of the BFF's code. */
function matching(rows: readonly OracleRow[], q: string): OracleRow[] {
  const text = folded(q);
  const range = /^(-?\d+(?:\.\d+)?)\.\.(-?\d+(?:\.\d+)?)$/.exec(q.trim());
  const exact = /^-?\d+(\.\d+)?$/.test(q.trim()) ? q.trim() : null;
  const bounds = range
    ? [thousandths(range[1] ?? ''), thousandths(range[2] ?? '')].sort((a, b) => (a < b ? -1 : 1))
    : exact
      ? [thousandths(exact), thousandths(exact)]
      : null;
  return rows.filter((row) => {
    if (bounds) {
      const amount = thousandths(majorText(row.amount, row.currency));
      if (amount >= (bounds[0] as bigint) && amount <= (bounds[1] as bigint)) return true;
    }
    return [row.id, row.reference, row.counterparty].some((field) => folded(field ?? '').includes(text));
  });
}

/** Searches the view shown for `q` and waits for the search to end, its count in the footer. */
async function search(page: Page, q: string): Promise<number> {
  const field = page.getByRole('searchbox', { name: 'Search' });
  await expect(field).toBeEnabled();
  await field.fill(q);
  await field.press('Enter');
  await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe(q);
  const status = page.getByTestId('search-status');
  await expect(status).toHaveText(/^[\d,]+ match(es)?$/, { timeout: 30_000 });
  return Number((await status.textContent())?.replace(/\D/g, ''));
}

test('a search of a group finds by id, reference, counterparty (case and accents aside), amount and range: every match, nothing else', async ({
  page,
}) => {
  test.setTimeout(180_000);
  expect(view.length).toBeGreaterThan(100);
  const row = view[Math.floor(view.length / 2)] as OracleRow;
  const withReference = view.find((r) => r.reference !== null) as OracleRow;
  const accented = view.find(
    (r) => r.counterparty !== null && folded(r.counterparty) !== r.counterparty.toLowerCase(),
  );
  const money = view.find((r) => r.currency === 'EUR' && r.amount >= 10_000) as OracleRow;
  if (!accented) throw new Error('no payment of the view has a counterparty with accents');
  // A few words of the name, without their accents and in upper case: "SOCIETE GENERALE", "MULLER & SOHNE".
  const name = folded(accented.counterparty ?? '')
    .split(' ')
    .slice(0, 2)
    .join(' ')
    .toUpperCase();
  const queries = [
    // an id's first digits, in capitals
    row.id.slice(0, -1).toUpperCase(),
    withReference.reference?.toLowerCase() ?? '',
    name,
    majorText(money.amount, money.currency),
    '100..200',
  ];

  await page.goto(VIEW);
  await expect(page.locator('tbody tr[data-row-id]').first()).toBeVisible();
  for (const q of queries) {
    const expected = matching(view, q).map(keyOf).sort();
    expect(expected.length, `the view holds a match of ${q}`).toBeGreaterThan(0);
    // none of the sandbox's payments outside the view is found: the search keeps to the view
    expect(await search(page, q), `the count of ${q}`).toBe(expected.length);
    expect((await allShownRows(page)).sort(), `the matches of ${q}`).toEqual(expected);
  }
  // the accents were left aside, not typed: the name as written does not hold the text searched for
  expect(
    matching(view, name).some((r) => !(r.counterparty ?? '').toLowerCase().includes(name.toLowerCase())),
  ).toBe(true);
  // the range found payments of more than one currency: in each one's own major units
  expect(new Set(matching(view, '100..200').map((r) => r.currency)).size).toBeGreaterThan(1);
});

test('axe finds no violation of any impact on the matches of a search', async ({ page }) => {
  test.setTimeout(90_000);
  await page.goto(VIEW);
  await expect(page.locator('tbody tr[data-row-id]').first()).toBeVisible();
  expect(await search(page, '100..200')).toBeGreaterThan(0);
  await expect(page.locator('tbody tr[data-row-id]').first()).toBeVisible();
  expect(await allViolations(page)).toEqual([]);
});

test("a link to a subsidiary's payment, opened in the holding's view, opens it and names its company", async ({
  page,
}) => {
  test.setTimeout(60_000);
  const companies = sandbox?.tenants[0]?.companies ?? [];
  const holding = companies.find((company) => company.parent_id === null)?.id ?? '';
  // a subsidiary two levels down, and one of its payments from a year back
  const subsidiary = companies.find((company) =>
    companies.some((parent) => parent.id === company.parent_id && parent.parent_id === holding),
  );
  if (!subsidiary) throw new Error('the sandbox has no company two levels below its holding');
  const own = tenant.filter((row) => row.company_id === subsidiary.id);
  const payment = own[Math.floor(own.length / 2)] as OracleRow;
  expect(tenant.filter((row) => row.id === payment.id).map((row) => row.company_id)).toEqual([subsidiary.id]);

  await page.goto(`/payments/${payment.id}?company=${holding}`);
  const drawer = page.getByRole('dialog', { name: `Payment ${payment.id}` });
  await expect(drawer.locator('dd[data-field="id"]')).toHaveText(payment.id, { timeout: 30_000 });
  await expect(drawer.locator('dd[data-field="@company"]')).toHaveText(subsidiary.name);
  await expect(drawer.locator('dd[data-field="company_id"]')).toHaveText(subsidiary.id);
  await expect(drawer.getByTestId('payment-found-in')).toContainText(`Found in ${subsidiary.name}`);
  // the list behind is that company's now, and closing the drawer leaves it there
  await expect(page).toHaveURL(new RegExp(`/payments/${payment.id}\\?company=${subsidiary.id}$`));
  await page.keyboard.press('Escape');
  await expect(page).toHaveURL(new RegExp(`/\\?company=${subsidiary.id}$`));
  await expect(page.getByRole('button', { name: /^Company / })).toContainText(subsidiary.name);
});
