/** Contract tests: one per numbered rule of spec parts 2, 4, 5, 7, 8 and 9 (payments-api-v1.md). */
import {
  companyTreeSchema,
  KNOWN_STATUSES,
  LIMIT_DEFAULT,
  LIMIT_MAX,
  PROBLEM_CONTENT_TYPE,
  paymentPageSchema,
  problemSchema,
} from '@payments/shared';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createSandbox } from './create-sandbox.ts';
import { basic, expectedIds, list, OTHER_AUTH, page, SANDBOX_AUTH, walk } from './testing/test-requests.ts';

const START = new Date('2026-11-01T12:00:00Z');
let clock = START;
const sandbox = createSandbox({ seedCount: 4_000, seed: 7, now: () => clock });
const { app, store } = sandbox;
afterAll(() => sandbox.close());

async function expectProblem(response: Response, status: number, code: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get('Content-Type')).toBe(PROBLEM_CONTENT_TYPE);
  const body = problemSchema.parse(await response.json());
  expect(body.code).toBe(code);
  expect(body.status).toBe(status);
  return body;
}

describe('part 2: resources and the page envelope', () => {
  it('rule 1: when has_more is false, next_cursor is null (last page of a walk)', async () => {
    const { pages } = await walk(app, { company: 'acme-us-ca', query: { limit: '5' } });
    const last = pages[pages.length - 1];
    expect(last?.has_more).toBe(false);
    expect(last?.next_cursor).toBeNull();
  });

  it('has_more is true exactly when rows remain: a list of 2 × limit rows takes 2 pages, not an empty third', async () => {
    // A filtered list with an even number of rows, so that a page size of half of it ends on a page boundary.
    const lists = ['acme-us-ca', 'acme-us-ny', 'acme-eu-fr', 'acme-eu-de'].flatMap((companyId) =>
      KNOWN_STATUSES.map((status) => ({ companyId, status, ids: expectedIds(store, { companyId, status }) })),
    );
    const even = lists.find(({ ids }) => ids.length >= 4 && ids.length <= 200 && ids.length % 2 === 0);
    if (!even) throw new Error('no filtered list of an even size: change the seed');
    const size = even.ids.length / 2;
    const { ids, pages } = await walk(app, {
      company: even.companyId,
      query: { status: even.status, limit: String(size) },
    });
    expect(ids).toEqual(even.ids);
    expect(pages.map((p) => [p.data.length, p.has_more])).toEqual([
      [size, true],
      [size, false],
    ]);
  });

  it('rule 2: when has_more is true, next_cursor is a string', async () => {
    const first = await page(app, { query: { limit: '10' } });
    expect(first.has_more).toBe(true);
    expect(typeof first.next_cursor).toBe('string');
    expect(first.next_cursor?.length).toBeGreaterThan(0);
  });

  it('every page has the envelope fields and passes the shared envelope schema with both rules', async () => {
    const { pages } = await walk(app, { company: 'acme-eu-fr', query: { limit: '100' } });
    for (const p of pages) expect(paymentPageSchema.safeParse(p).success).toBe(true);
    expect(pages.length).toBeGreaterThan(1);
  });

  it('payment records carry the documented fields with their types', async () => {
    const { data } = await page(app, { query: { limit: '100' } });
    for (const row of data) {
      expect(Object.keys(row)).toEqual([
        'id',
        'company_id',
        'status',
        'amount',
        'currency',
        'created_at',
        'description',
        'counterparty',
        'reference',
      ]);
      expect(row.id).toMatch(/^pay_\d{12}$/);
      expect(row.company_id).toBe('acme');
      expect(KNOWN_STATUSES).toContain(row.status);
      expect(Number.isInteger(row.amount)).toBe(true);
      expect(['EUR', 'USD', 'GBP', 'JPY']).toContain(row.currency);
      expect(row.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
    }
  });

  it('a company is an account holder with child companies: the tree has one root and known parents', async () => {
    const response = await app.request('/_sandbox/companies', { headers: { Authorization: SANDBOX_AUTH } });
    expect(response.status).toBe(200);
    const tree = companyTreeSchema.parse(await response.json());
    expect(tree.length).toBeGreaterThanOrEqual(6);
    expect(tree.find((c) => c.parent_id === null)?.id).toBe('acme');
    // Grandchildren exist, so "indirect descendant" can be tested.
    const parents = new Map(tree.map((c) => [c.id, c.parent_id]));
    expect(tree.some((c) => c.parent_id !== null && parents.get(c.parent_id) !== null)).toBe(true);
  });

  it('each set of credentials sees its own company tree, and none without credentials', async () => {
    const other = await app.request('/_sandbox/companies', { headers: { Authorization: OTHER_AUTH } });
    expect(other.status).toBe(200);
    const tree = companyTreeSchema.parse(await other.json());
    expect(tree.find((c) => c.parent_id === null)?.id).toBe('globex');
    expect(tree.filter((c) => c.id.startsWith('acme'))).toEqual([]);
    const anonymous = await app.request('/_sandbox/companies');
    await expectProblem(anonymous, 401, 'unauthenticated');
    expect(anonymous.headers.get('WWW-Authenticate')).toMatch(/^Basic realm="sandbox"/);
  });
});

describe('part 4: endpoints and pagination rules', () => {
  it('rule 1: the first request carries no cursor and gets the newest payments first', async () => {
    const first = await page(app, { query: { limit: '20' } });
    expect(first.data.map((r) => r.id)).toEqual(expectedIds(store, { companyId: 'acme' }).slice(0, 20));
  });

  it('rule 2: repeating the request with cursor=next_cursor returns the following page', async () => {
    const expected = expectedIds(store, { companyId: 'acme' });
    const first = await page(app, { query: { limit: '30' } });
    const second = await page(app, { query: { limit: '30', cursor: first.next_cursor ?? '' } });
    expect(second.data.map((r) => r.id)).toEqual(expected.slice(30, 60));
  });

  it('rule 2: the limit may change between pages of one session', async () => {
    const expected = expectedIds(store, { companyId: 'acme' });
    const first = await page(app, { query: { limit: '7' } });
    const second = await page(app, { query: { limit: '100', cursor: first.next_cursor ?? '' } });
    expect(second.data.map((r) => r.id)).toEqual(expected.slice(7, 107));
  });

  it('rule 3: a cursor sent with a changed filter is rejected with 400 cursor_mismatch', async () => {
    const session = { status: 'COMPLETED', date_from: '2025-01-01T00:00:00' };
    const first = await page(app, { query: { ...session, limit: '5' } });
    const cursor = first.next_cursor ?? '';
    for (const changed of [
      { ...session, status: 'FAILED' },
      { ...session, date_from: '2025-01-01T00:00:01' },
      { status: session.status },
      { date_from: session.date_from },
      {},
    ]) {
      await expectProblem(await list(app, { query: { ...changed, cursor } }), 400, 'cursor_mismatch');
    }
    await expectProblem(
      await list(app, { company: 'acme-eu', query: { ...session, cursor } }),
      400,
      'cursor_mismatch',
    );
  });

  it('rule 4: different filters start a new session without cursor, which lists exactly the filtered rows', async () => {
    const filters = { companyId: 'acme-eu-de', status: 'AWAITING', dateFrom: '2025-09-15T08:30:00' };
    const { ids, pages } = await walk(app, {
      company: filters.companyId,
      query: { status: filters.status, date_from: filters.dateFrom, limit: '25' },
    });
    expect(ids).toEqual(expectedIds(store, filters));
    for (const row of pages.flatMap((p) => p.data)) {
      expect(row.status).toBe('AWAITING');
      expect(row.created_at >= filters.dateFrom).toBe(true);
    }
  });

  it('date_from is inclusive: the payments created at exactly that second are listed, and nothing older', async () => {
    const rows = (await walk(app, { company: 'acme-eu-de', query: { limit: '100' } })).pages.flatMap(
      (p) => p.data,
    );
    const middle = rows[Math.floor(rows.length / 2)];
    if (!middle) throw new Error('acme-eu-de has no payments');
    const { pages } = await walk(app, {
      company: 'acme-eu-de',
      query: { date_from: middle.created_at, limit: '100' },
    });
    // Newest first: every row down to the last one of the middle row's second.
    const lastOfSecond = rows.findLastIndex((row) => row.created_at === middle.created_at);
    expect(pages.flatMap((p) => p.data).map((row) => row.id)).toEqual(
      rows.slice(0, lastOfSecond + 1).map((row) => row.id),
    );
  });

  it('rule 5: the list answers alike with and without the trailing slash, and their cursors interchange', async () => {
    const slash = await page(app, { query: { limit: '10' } });
    const bare = await page(app, { path: '/v1/payments', query: { limit: '10' } });
    expect(bare.data).toEqual(slash.data);
    const next = await page(app, {
      path: '/v1/payments',
      query: { limit: '10', cursor: slash.next_cursor ?? '' },
    });
    expect(next.data.map((r) => r.id)).toEqual(expectedIds(store, { companyId: 'acme' }).slice(10, 20));
  });

  it('status filter: an unknown but well-formed status is a valid filter with an empty last page', async () => {
    expect(await page(app, { query: { status: 'PENDING' } })).toEqual({
      data: [],
      next_cursor: null,
      has_more: false,
    });
  });

  it('order: created_at descending, then id descending, with rows that share a second', async () => {
    const { pages } = await walk(app, { query: { limit: '100' } });
    const rows = pages.flatMap((p) => p.data);
    let ties = 0;
    for (let i = 1; i < rows.length; i++) {
      const [a, b] = [rows[i - 1], rows[i]] as [(typeof rows)[0], (typeof rows)[0]];
      expect(a.created_at > b.created_at || (a.created_at === b.created_at && a.id > b.id)).toBe(true);
      if (a.created_at === b.created_at) ties++;
    }
    expect(ties).toBeGreaterThan(10);
  });
});

describe('part 5: authentication', () => {
  it('rule 1: a request without valid HTTP Basic credentials gets 401 with WWW-Authenticate: Basic', async () => {
    for (const [authorization, code] of [
      ['', 'unauthenticated'],
      ['Bearer abc', 'unauthenticated'],
      ['Basic', 'unauthenticated'],
      ['Basic !!!', 'unauthenticated'],
      [`Basic ${Buffer.from('no-colon').toString('base64')}`, 'unauthenticated'],
      [basic('sandbox_id', 'wrong'), 'invalid_credentials'],
      [basic('wrong', 'sandbox_secret'), 'invalid_credentials'],
      [basic('sandbox_id', 'other_secret'), 'invalid_credentials'],
    ] as const) {
      const response = await list(app, { authorization });
      await expectProblem(response, 401, code);
      expect(response.headers.get('WWW-Authenticate')).toMatch(/^Basic realm="sandbox"/);
    }
    expect((await list(app, { authorization: SANDBOX_AUTH })).status).toBe(200);
    expect((await list(app, { authorization: `basic ${SANDBOX_AUTH.slice(6)}` })).status).toBe(200);
  });

  it('rule 2: credentials this environment did not issue are refused', async () => {
    const production = basic('live_3f9a1c', 'sk_live_correct-horse-battery');
    await expectProblem(await list(app, { authorization: production }), 401, 'invalid_credentials');
    const custom = createSandbox({
      seedCount: 10,
      credentials: { sandbox: { secretId: 'rotated', secretPassword: 'new-secret' } },
    });
    await expectProblem(await list(custom.app, { authorization: SANDBOX_AUTH }), 401, 'invalid_credentials');
    expect((await list(custom.app, { authorization: basic('rotated', 'new-secret') })).status).toBe(200);
    custom.close();
    // RFC 7617: the id ends at the first colon; the password may hold colons of its own.
    const colons = createSandbox({
      seedCount: 10,
      credentials: { sandbox: { secretId: 'colon_id', secretPassword: 'pa:ss:word' } },
    });
    expect((await list(colons.app, { authorization: basic('colon_id', 'pa:ss:word') })).status).toBe(200);
    await expectProblem(
      await list(colons.app, { authorization: basic('colon_id', 'pa') }),
      401,
      'invalid_credentials',
    );
    colons.close();
  });

  it('rule 3: credentials stay secret: no response echoes the secret id or password', async () => {
    for (const authorization of [SANDBOX_AUTH, basic('sandbox_id', 'sandbox_secretX')]) {
      const text = await (await list(app, { authorization, query: { limit: '101' } })).text();
      expect(text).not.toContain('sandbox_id');
      expect(text).not.toContain('sandbox_secret');
    }
  });

  it('acting rule 1: X-Company-Id with the same credentials changes the scope to that company', async () => {
    const { data } = await page(app, { company: 'acme-us', query: { limit: '100' } });
    expect(data.length).toBeGreaterThan(0);
    expect(new Set(data.map((r) => r.company_id))).toEqual(new Set(['acme-us']));
    expect(data.map((r) => r.id)).toEqual(expectedIds(store, { companyId: 'acme-us' }).slice(0, 100));
  });

  it('acting rule 2: direct and indirect descendants and the own company are allowed', async () => {
    for (const company of ['acme', 'acme-eu', 'acme-eu-de', 'acme-us-ny']) {
      const { data } = await page(app, { company, query: { limit: '3' } });
      expect(data.every((r) => r.company_id === company)).toBe(true);
    }
    const { data } = await page(app, {
      authorization: OTHER_AUTH,
      company: 'globex-uk-lon',
      query: { limit: '3' },
    });
    expect(data.every((r) => r.company_id === 'globex-uk-lon')).toBe(true);
  });

  it('acting rule 3: an unrelated company (other tenant, unknown id) is rejected with 403', async () => {
    for (const company of ['globex', 'globex-uk-lon', 'nobody', 'ACME', 'acme-eu-', 'acme,acme-eu']) {
      await expectProblem(await list(app, { company }), 403, 'forbidden_company');
    }
    for (const company of ['acme', 'acme-eu-de']) {
      await expectProblem(await list(app, { authorization: OTHER_AUTH, company }), 403, 'forbidden_company');
    }
  });
});

describe('part 7: errors', () => {
  it('X-Company-Id naming a non-descendant gets HTTP 403 as problem+json', async () => {
    const body = await expectProblem(await list(app, { company: 'globex-de' }), 403, 'forbidden_company');
    expect(body.detail).toContain('globex-de');
  });

  it('a cursor sent with other filters is rejected: 400 cursor_mismatch, never unexpected results', async () => {
    const first = await page(app, { company: 'acme-eu', query: { status: 'FAILED', limit: '2' } });
    const response = await list(app, {
      company: 'acme-eu',
      query: { status: 'COMPLETED', cursor: first.next_cursor ?? '' },
    });
    await expectProblem(response, 400, 'cursor_mismatch');
  });

  it('a forged, altered or foreign cursor is rejected with 400 invalid_cursor', async () => {
    const first = await page(app, { query: { limit: '2' } });
    const cursor = first.next_cursor ?? '';
    const flipped = `${cursor.slice(0, 10)}${cursor[10] === 'A' ? 'B' : 'A'}${cursor.slice(11)}`;
    const otherInstance = createSandbox({ seedCount: 100, seed: 7 });
    const foreign = (await page(otherInstance.app, { query: { limit: '2' } })).next_cursor ?? '';
    otherInstance.close();
    for (const bad of [
      flipped,
      cursor.slice(0, -2),
      `${cursor}AA`,
      'abc',
      'e30',
      foreign,
      cursor.replace(/[A-Z]/, '+'),
    ]) {
      await expectProblem(await list(app, { query: { cursor: bad } }), 400, 'invalid_cursor');
    }
  });

  it('every error is problem+json with type, title, status, detail and a shared code', async () => {
    const cases: [Promise<Response>, number][] = [
      [Promise.resolve(app.request('/v1/payments/')), 401],
      [list(app, { company: 'globex' }), 403],
      [list(app, { query: { limit: 'x' } }), 400],
      [Promise.resolve(app.request('/v1/refunds/', { headers: { Authorization: SANDBOX_AUTH } })), 404],
      [
        Promise.resolve(
          app.request('/v1/payments/', { method: 'DELETE', headers: { Authorization: SANDBOX_AUTH } }),
        ),
        405,
      ],
    ];
    for (const [response, status] of cases) {
      const r = await response;
      expect(r.status).toBe(status);
      expect(r.headers.get('Content-Type')).toBe(PROBLEM_CONTENT_TYPE);
      expect(problemSchema.safeParse(await r.json()).success).toBe(true);
    }
  });

  it('other methods on the list get 405 with Allow', async () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      const response = await app.request('/v1/payments', {
        method,
        headers: { Authorization: SANDBOX_AUTH },
      });
      await expectProblem(response, 405, 'method_not_allowed');
      expect(response.headers.get('Allow')).toBe('GET, HEAD');
    }
  });
});

describe('part 8: limits', () => {
  it(`limit default: ${LIMIT_DEFAULT} records`, async () => {
    const first = await page(app);
    expect(first.data).toHaveLength(LIMIT_DEFAULT);
  });

  it(`limit maximum: ${LIMIT_MAX} records, and every limit from 1 to ${LIMIT_MAX} is honoured`, async () => {
    for (const limit of [1, 2, 37, 99, LIMIT_MAX]) {
      expect((await page(app, { query: { limit: String(limit) } })).data).toHaveLength(limit);
    }
  });

  it('limit above the maximum, zero, negative or not an integer gets 400 invalid_parameter naming limit', async () => {
    for (const limit of ['101', '0', '-1', '1.5', '1e2', '', 'fifty', '1000000']) {
      const body = await expectProblem(await list(app, { query: { limit } }), 400, 'invalid_parameter');
      expect(body.parameter).toBe('limit');
      expect(body.detail).toContain('limit');
    }
  });
});

describe('part 9: versioning', () => {
  // Some tests move the clock past the sunset; a failure there must not leak into the next test.
  afterEach(() => {
    clock = START;
  });

  it('rule 1: the version is the v1 segment of the base address; other versions and bare paths are 404', async () => {
    for (const path of ['/v2/payments/', '/payments/', '/v1/v1/payments/', '/V1/payments/']) {
      const response = await app.request(path, { headers: { Authorization: SANDBOX_AUTH } });
      await expectProblem(response, 404, 'not_found');
    }
  });

  it('rule 2: page_number/page_size still work before the sunset, with Deprecation and Sunset headers', async () => {
    clock = new Date('2027-06-30T23:59:59Z');
    const response = await list(app, { query: { page_number: '3', page_size: '20', status: 'COMPLETED' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('Deprecation')).toMatch(/^@\d+$/);
    expect(response.headers.get('Sunset')).toBe('Thu, 01 Jul 2027 00:00:00 GMT');
    const body = paymentPageSchema.parse(await response.json());
    expect(body.data.map((r) => r.id)).toEqual(
      expectedIds(store, { companyId: 'acme', status: 'COMPLETED' }).slice(40, 60),
    );
  });

  it('rule 2: page_number alone pages by the default page size, that of limit (which replaced page_size)', async () => {
    clock = new Date('2027-06-30T23:59:59Z');
    const second = await page(app, { query: { page_number: '2' } });
    expect(second.data.map((r) => r.id)).toEqual(
      expectedIds(store, { companyId: 'acme' }).slice(LIMIT_DEFAULT, 2 * LIMIT_DEFAULT),
    );
  });

  it('rule 2: after the sunset date page_number/page_size get 410 gone', async () => {
    clock = new Date('2027-07-01T00:00:00Z');
    for (const query of [{ page_number: '1' }, { page_size: '10' }, { page_number: '2', page_size: '10' }]) {
      await expectProblem(await list(app, { query }), 410, 'gone');
    }
    expect((await list(app, { query: { limit: '10' } })).status).toBe(200);
  });

  it('rule 2: the deprecated pair mixed with cursor or limit gets 400', async () => {
    const first = await page(app, { query: { limit: '2' } });
    for (const query of [
      { page_number: '1', limit: '10' },
      { page_size: '10', cursor: first.next_cursor ?? '' },
    ]) {
      await expectProblem(await list(app, { query }), 400, 'invalid_parameter');
    }
  });

  it('rule 3: replacements: next_cursor of an offset page continues the list by cursor', async () => {
    const offsetPage = await page(app, { company: 'acme-eu', query: { page_number: '2', page_size: '15' } });
    const next = await page(app, {
      company: 'acme-eu',
      query: { limit: '15', cursor: offsetPage.next_cursor ?? '' },
    });
    expect([...offsetPage.data, ...next.data].map((r) => r.id)).toEqual(
      expectedIds(store, { companyId: 'acme-eu' }).slice(15, 45),
    );
  });
});
