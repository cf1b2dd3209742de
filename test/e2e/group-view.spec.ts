import { companiesOf, expect, type SandboxPayment, sandboxPage, signInByApi, test } from './fixtures.ts';
import { stack } from './stack.ts';

test.beforeEach(async ({ page }) => {
  await signInByApi(page);
});

const count = new Intl.NumberFormat('en-US');
const GROUP = ['acme-eu', 'acme-eu-de', 'acme-eu-fr'];

/** A company's payments of May 2026, as the sandbox API lists them. */
async function sandboxMay(company: string): Promise<SandboxPayment[]> {
  const rows: SandboxPayment[] = [];
  let cursor: string | null = null;
  do {
    const page = await sandboxPage(
      { date_from: '2026-05-01T00:00:00', limit: '100', ...(cursor ? { cursor } : {}) },
      company,
    );
    rows.push(...page.data);
    cursor = page.next_cursor;
  } while (cursor);
  return rows.filter((row) => row.created_at <= '2026-05-31T23:59:59');
}

test('the switcher offers a company with its subsidiaries; the group lists the rows of all of them, each with its company by name', async ({
  page,
}) => {
  const names = new Map((await companiesOf(stack.sandboxCredentials)).map((c) => [c.id, c.name]));
  const may = (await Promise.all(GROUP.map(sandboxMay))).flat();
  await page.goto('/?company=acme-eu&date_from=2026-05-01T00:00:00&date_to=2026-05-31T23:59:59');
  await expect(page.locator('tbody tr[data-row-id]').first()).toBeVisible();
  await expect(page.locator('thead th[data-column="@company"]')).toHaveCount(0);

  await page.getByRole('button', { name: /^Company / }).click();
  await page.getByRole('link', { name: 'Acme Europe B.V. and its subsidiaries' }).click();
  await expect(page).toHaveURL(/\/\?company=acme-eu&group=true&date_from=/);
  await expect(page.getByRole('button', { name: /^Company / })).toHaveText(
    /Acme Europe B\.V\. and its subsidiaries/,
  );
  await expect(page.locator('thead th[data-column="@company"]')).toBeVisible();
  await expect(page.locator('tbody tr[data-row-id]').first()).toBeVisible();

  const rows = await page.locator('tbody tr[data-row-id]').evaluateAll((elements) =>
    elements.map((row) => ({
      id: row.getAttribute('data-row-id') ?? '',
      name: row.querySelector('[data-column="@company"]')?.textContent ?? '',
    })),
  );
  const companyOf = new Map(may.map((p) => [p.id, p.company_id]));
  for (const row of rows) expect(row.name).toBe(names.get(companyOf.get(row.id) ?? ''));
  expect(new Set(rows.map((row) => row.name)).size).toBeGreaterThan(1);

  // the figures are those of the three companies together
  await expect(page.getByTestId('summary-count')).toHaveText(`${count.format(may.length)} payments`, {
    timeout: 20_000,
  });

  // the drawer names the company of the payment
  const france = rows.find((row) => companyOf.get(row.id) === 'acme-eu-fr');
  if (!france) throw new Error('no payment of Acme France SAS among the first rows');
  await page.getByRole('link', { name: france.id }).click();
  const drawer = page.getByRole('dialog', { name: `Payment ${france.id}` });
  await expect(drawer.locator('dd[data-field="@company"]')).toHaveText('Acme France SAS');
  await expect(drawer.locator('dd[data-field="company_id"]')).toHaveText('acme-eu-fr');
});

test("the drawer names the company in one company's view too", async ({ page }) => {
  const [first] = (await sandboxPage({ limit: '1' }, 'acme-us')).data;
  if (!first) throw new Error('acme-us has no payments');
  await page.goto('/?company=acme-us');
  await page.getByRole('link', { name: first.id }).click();
  const drawer = page.getByRole('dialog', { name: `Payment ${first.id}` });
  await expect(drawer.locator('dd[data-field="@company"]')).toHaveText('Acme Americas Inc.');
});
