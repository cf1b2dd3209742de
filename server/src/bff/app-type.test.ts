import type { ErrorCode } from '@payments/shared';
import { hc } from 'hono/client';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import type { AppType } from './create-bff.ts';
import { createHarness, type Harness, PASSWORD } from './testing/bff-harness.ts';

let h: Harness;

beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});

describe('AppType for hono/client', () => {
  it('gives the web app typed calls: sign in, read config, list payments', async () => {
    let cookie = '';
    const client = hc<AppType>('http://bff.test', {
      headers: () => ({ 'X-CSRF': '1', cookie }),
      fetch: (input: string | URL | Request, init?: RequestInit) => h.bff.app.request(input, init),
    });
    const signIn = await client.api.session.$post({ json: { username: 'demo', password: PASSWORD } });
    expect(signIn.status).toBe(200);
    cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    if (signIn.status === 200) expectTypeOf((await signIn.json()).expires_at).toEqualTypeOf<string>();
    if (signIn.status === 401) expectTypeOf((await signIn.json()).code).toEqualTypeOf<ErrorCode>();

    const config = await client.api.config.$get();
    const body = await config.json();
    expectTypeOf(body.own_company_id).toEqualTypeOf<string>();
    expect(body.own_company_id).toBe('acme');

    const page = await client.api.payments.$get(
      { query: { limit: '3', status: 'COMPLETED' } },
      { headers: { 'X-Company-Id': 'acme-eu' } },
    );
    expect(page.status).toBe(200);
    if (page.status !== 200) return;
    const list = await page.json();
    expectTypeOf(list.next_cursor).toEqualTypeOf<string | null>();
    expect(list.data).toHaveLength(3);
    expect(list.data.every((p) => p.status === 'COMPLETED' && p.company_id === 'acme-eu')).toBe(true);

    const csv = await client.api.payments['export.csv'].$url({ query: { status: 'FAILED' } });
    expect(csv.pathname).toBe('/api/payments/export.csv');
    const xlsx = await client.api.payments['export.xlsx'].$url({
      query: { group: 'true', columns: 'amount' },
    });
    expect(xlsx.pathname).toBe('/api/payments/export.xlsx');
  });
});
