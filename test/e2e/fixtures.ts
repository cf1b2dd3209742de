import { mkdir } from 'node:fs/promises';
import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Page, type Route } from '@playwright/test';
import { sandboxURL, stack } from './stack.ts';

export interface SandboxPayment {
  id: string;
  company_id: string;
  status: string;
  amount: number;
  currency: string;
  created_at: string;
}

/** Asks the sandbox API itself (Basic auth, as the BFF does), to check what the dashboard shows. */
export async function sandboxPage(
  query: Record<string, string>,
  company?: string,
): Promise<{ data: SandboxPayment[]; next_cursor: string | null; has_more: boolean }> {
  const url = new URL('/v1/payments/', sandboxURL);
  for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
  const { id, secret } = stack.sandboxCredentials;
  const headers: Record<string, string> = { Authorization: `Basic ${btoa(`${id}:${secret}`)}` };
  if (company) headers['X-Company-Id'] = company;
  const response = await fetch(url, { headers });
  if (!response.ok) throw new Error(`sandbox ${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as { data: SandboxPayment[]; next_cursor: string | null; has_more: boolean };
}

/** Every id of a filtered list, following the sandbox's cursors (for small results). */
export async function sandboxIds(
  query: Record<string, string>,
  company?: string,
  max = 2000,
): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const page = await sandboxPage({ ...query, limit: '100', ...(cursor ? { cursor } : {}) }, company);
    ids.push(...page.data.map((p) => p.id));
    cursor = page.next_cursor;
  } while (cursor && ids.length < max);
  return ids;
}

export async function companiesOf(credentials: { id: string; secret: string }) {
  const response = await fetch(new URL('/_sandbox/companies', sandboxURL), {
    headers: { Authorization: `Basic ${btoa(`${credentials.id}:${credentials.secret}`)}` },
  });
  return (await response.json()) as Array<{ id: string; name: string; parent_id: string | null }>;
}

/** Shows one status alone, through the status filter's menu ("only"), and closes the menu. */
export async function chooseOnlyStatus(page: Page, status: string): Promise<void> {
  const button = page.locator('.status-choice .menu-button__button');
  await button.click();
  await page.getByRole('button', { name: `Only ${status}` }).click();
  await button.click();
  await expect(page.getByRole('button', { name: `Only ${status}` })).toHaveCount(0);
}

/** Signs in through the BFF's API (the UI sign-in has its own test); the cookie lands in the page's context. */
export async function signInByApi(page: Page): Promise<void> {
  const response = await page.request.post('/api/session', {
    headers: { 'X-CSRF': '1' },
    data: { username: stack.username, password: stack.password },
  });
  expect(response.status()).toBe(200);
}

/** The rows the table has rendered now, top to bottom: each one's position in the whole list and its payment id. */
export async function renderedRows(page: Page): Promise<Array<{ index: number; id: string }>> {
  const rows = await page.locator('tbody tr[data-row-id]').evaluateAll((elements) =>
    elements.map((row) => ({
      id: row.getAttribute('data-row-id') ?? '',
      index: Number(row.getAttribute('aria-rowindex')),
    })),
  );
  return rows.sort((a, b) => a.index - b.index);
}

/** The payment ids of the rows the table has rendered now, top to bottom. */
export async function renderedIds(page: Page): Promise<string[]> {
  return (await renderedRows(page)).map((row) => row.id);
}

/** Chooses an item of the Export menu (`CSV, shown columns`, `Excel (XLSX), all columns`…). */
export async function exportAs(page: Page, item: string): Promise<void> {
  await page.getByRole('button', { name: 'Export' }).click();
  await page.getByRole('menuitem', { name: item }).click();
}

/** The labels of the table's columns as the header shows them, in order ("Payment ID", "Created (UTC)", …). */
export async function columnLabels(page: Page): Promise<string[]> {
  const names = await page
    .locator('thead th .column-head__menu-button')
    .evaluateAll((buttons) => buttons.map((button) => button.getAttribute('aria-label') ?? ''));
  return names.map((name) => name.replace(/^Column options: /, ''));
}

/** Every violation axe finds with its full rule set (WCAG A/AA and best practices), of any impact. */
export async function allViolations(
  page: Page,
): Promise<Array<{ id: string; impact: string | null | undefined; nodes: string[] }>> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.map((v) => ({
    id: v.id,
    impact: v.impact,
    nodes: v.nodes.map((n) => n.target.join(' ')).slice(0, 3),
  }));
}

export async function screenshot(page: Page, name: string): Promise<void> {
  const dir = new URL('../test-results/screenshots/', import.meta.url);
  await mkdir(dir, { recursive: true });
  await page.screenshot({ path: new URL(`${name}.png`, dir).pathname, fullPage: false });
}

/**
 * Every test fails if the page logged a Content-Security-Policy violation: rows are positioned through CSSOM,
 * and nothing inline may slip in.
 */
export const test = base.extend<{ cspGuard: undefined }>({
  cspGuard: [
    async ({ page }, use) => {
      const violations: string[] = [];
      page.on('console', (message) => {
        if (/Content Security Policy|Refused to (apply|execute|load)/i.test(message.text())) {
          violations.push(message.text());
        }
      });
      await use(undefined);
      expect(violations, 'CSP violations in the console').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

/** Answers as the BFF does when the payments service is down. */
export function answerUnavailable(route: Route): Promise<void> {
  return route.fulfill({
    status: 503,
    contentType: 'application/problem+json',
    body: JSON.stringify({
      type: 'urn:payments-dashboard:problem:upstream_unavailable',
      title: 'Payments service unavailable',
      status: 503,
      detail: 'injected by the test',
      code: 'upstream_unavailable',
    }),
  });
}
