import { Agent, get, type IncomingHttpHeaders } from 'node:http';
import type { Socket } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credentialSpellings, type SpecUpstream, startSpecUpstream } from './spec-upstream.ts';

const credentials = { secretId: 'spec-client-7f3a', secretPassword: 's3cr3t pa~ss/wörd?!' };
const basic = (id: string, password: string) =>
  `Basic ${Buffer.from(`${id}:${password}`).toString('base64')}`;
const authorization = basic(credentials.secretId, credentials.secretPassword);

interface Envelope {
  has_more: boolean;
  next_cursor: string | null;
  meta: { api_version: string; request_id: string };
  data: Record<string, unknown>[];
}

let upstream: SpecUpstream;
beforeAll(async () => {
  upstream = await startSpecUpstream({ credentials });
});
afterAll(() => upstream.close());

function listUrl(up: SpecUpstream, params: Record<string, string> = {}): string {
  const query = new URLSearchParams(params).toString();
  return `${up.baseUrl}/payments/${query ? `?${query}` : ''}`;
}

function headersFor(up: SpecUpstream, companyId?: string): Record<string, string> {
  const root = up.companies.find((c) => c.parent_id === null)?.id;
  return companyId && companyId !== root ? { authorization, 'x-company-id': companyId } : { authorization };
}

async function walk(
  up: SpecUpstream,
  companyId: string,
  filters: Record<string, string> = {},
  limit = 37,
): Promise<{ records: Record<string, unknown>[]; pages: Envelope[] }> {
  const pages: Envelope[] = [];
  let cursor: string | null = null;
  do {
    const params: Record<string, string> = {
      ...filters,
      limit: String(limit),
      ...(cursor ? { cursor } : {}),
    };
    const response = await fetch(listUrl(up, params), { headers: headersFor(up, companyId) });
    expect(response.status).toBe(200);
    const page = (await response.json()) as Envelope;
    pages.push(page);
    cursor = page.next_cursor;
  } while (cursor !== null && pages.length < 100);
  return { records: pages.flatMap((page) => page.data), pages };
}

/** A raw HTTP GET, so the test sees bytes and sockets exactly as sent. */
function rawGet(
  url: string,
  headers: Record<string, string>,
  agent?: Agent,
): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer; socket: Socket }> {
  return new Promise((resolve, reject) => {
    const request = get(url, { headers, agent: agent ?? false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: Buffer.concat(chunks),
          socket: request.socket as Socket,
        }),
      );
    });
    request.on('error', reject);
  });
}

const instantOf = (text: string) => Date.parse(/(Z|[+-]\d\d:\d\d)$/.test(text) ? text : `${text}Z`);

describe('startSpecUpstream', () => {
  it('walks every company page by page with limit=37 to exactly expected(), keeping the envelope rules', async () => {
    const root = upstream.companies.filter((c) => c.parent_id === null);
    expect(root).toHaveLength(1);
    const descendants = upstream.companies.filter((c) => c.parent_id !== null);
    expect(descendants.length).toBeGreaterThanOrEqual(3);
    expect(descendants.some((c) => c.parent_id !== root[0]?.id)).toBe(true);

    for (const company of upstream.companies) {
      const { records, pages } = await walk(upstream, company.id);
      expect(pages).toHaveLength(7);
      for (const [index, page] of pages.entries()) {
        const last = index === pages.length - 1;
        expect(page.data).toHaveLength(last ? 250 - 6 * 37 : 37);
        expect(page.has_more).toBe(!last);
        if (last) expect(page.next_cursor).toBeNull();
        else expect(typeof page.next_cursor).toBe('string');
      }
      expect(records).toEqual(upstream.expected(company.id));
      expect(records).toHaveLength(250);
    }
  });

  it('serves numeric ids at the root, UUIDs below it, and mixed shapes of amount, date, status and counterparty', () => {
    const [root, ...descendants] = upstream.companies;
    expect(upstream.expected(root?.id ?? '').every((r) => typeof r.id === 'number')).toBe(true);
    for (const company of descendants) {
      const uuids = upstream
        .expected(company.id)
        .every((r) => typeof r.id === 'string' && /^[0-9a-f-]{36}$/.test(r.id));
      expect(uuids).toBe(true);
    }
    const all = upstream.companies.flatMap((c) => upstream.expected(c.id));
    const count = (test: (r: Record<string, unknown>) => boolean) => all.filter(test).length;
    expect(count((r) => typeof r.amount === 'string')).toBeGreaterThan(all.length / 2);
    expect(count((r) => typeof r.amount === 'number')).toBeGreaterThan(0);
    expect(count((r) => r.amount === null)).toBeGreaterThan(0);
    expect(count((r) => !('amount' in r))).toBeGreaterThan(0);
    expect(count((r) => r.currency === 'JPY' && typeof r.amount === 'string' && r.amount.includes('.'))).toBe(
      0,
    );
    expect(count((r) => r.currency === 'BHD' && /^-?\d+\.\d{3}$/.test(String(r.amount)))).toBeGreaterThan(0);
    expect(count((r) => /\.\d{3}Z$/.test(String(r.created_at)))).toBeGreaterThan(all.length / 2);
    expect(count((r) => /[+-]\d\d:\d\d$/.test(String(r.created_at)))).toBeGreaterThan(0);
    expect(count((r) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/.test(String(r.created_at)))).toBeGreaterThan(0);
    expect(new Set(all.map((r) => r.status))).toEqual(
      new Set([
        'COMPLETED',
        'AWAITING',
        'FAILED',
        'REFUNDED',
        'PARTIALLY_REFUNDED_PENDING_REVIEW',
        'chargeback_open',
      ]),
    );
    expect(count((r) => typeof r.counterparty === 'object' && r.counterparty !== null)).toBeGreaterThan(0);
    expect(count((r) => typeof r.reference === 'number')).toBeGreaterThan(0);
    expect(count((r) => Array.isArray(r.tags))).toBeGreaterThan(0);

    for (const company of upstream.companies) {
      const rows = upstream.expected(company.id);
      let ties = 0;
      for (let i = 1; i < rows.length; i += 1) {
        const [before, after] = [rows[i - 1] ?? {}, rows[i] ?? {}];
        const [a, b] = [instantOf(String(before.created_at)), instantOf(String(after.created_at))];
        expect(a).toBeGreaterThanOrEqual(b);
        if (a === b) {
          ties += 1;
          expect(String(before.id) > String(after.id)).toBe(true);
        }
      }
      expect(ties).toBeGreaterThan(0);
    }
  });

  it('narrows the list by status and date_from (inclusive, read as UTC), and a filtered walk equals expected()', async () => {
    const child = upstream.companies[1]?.id ?? '';
    const all = upstream.expected(child);
    const completed = all.filter((r) => r.status === 'COMPLETED');
    // A whole-second instant in mid list, so the boundary record itself must be included.
    const boundary = completed.find(
      (r, index) => index > completed.length / 3 && instantOf(String(r.created_at)) % 1000 === 0,
    );
    const from = instantOf(String(boundary?.created_at));
    const filters = { status: 'COMPLETED', date_from: new Date(from).toISOString().slice(0, 19) };
    const { records } = await walk(upstream, child, filters, 7);
    expect(records).toEqual(upstream.expected(child, filters));
    expect(records).toEqual(completed.filter((r) => instantOf(String(r.created_at)) >= from));
    expect(records).toContainEqual(boundary);
    expect(records.length).toBeGreaterThan(7);
    expect(records.length).toBeLessThan(completed.length);
  });

  it('walks a fixed shuffled permutation when order is shuffled', async () => {
    const shuffled = await startSpecUpstream({ credentials, order: 'shuffled', rowsPerCompany: 60 });
    try {
      const id = shuffled.companies[0]?.id ?? '';
      const { records } = await walk(shuffled, id, {}, 25);
      expect(records).toEqual(shuffled.expected(id));
      const sorted = [...records].sort(
        (a, b) => instantOf(String(b.created_at)) - instantOf(String(a.created_at)),
      );
      expect(records).not.toEqual(sorted);
      expect(new Set(records.map((r) => r.id))).toEqual(new Set(sorted.map((r) => r.id)));
    } finally {
      await shuffled.close();
    }
  });

  it('pretty-prints the page with has_more, next_cursor and meta before data, on both paths', async () => {
    for (const path of ['/payments/', '/payments']) {
      const response = await fetch(`${upstream.baseUrl}${path}?limit=3`, { headers: { authorization } });
      expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
      const text = await response.text();
      const page = JSON.parse(text) as Envelope;
      expect(text).toBe(JSON.stringify(page, null, 2));
      expect(text.startsWith('{\n  "has_more": true,\n  "next_cursor": "')).toBe(true);
      expect(Object.keys(page)).toEqual(['has_more', 'next_cursor', 'meta', 'data']);
      expect(page.meta.api_version).toBe('v1');
      expect(page.meta.request_id).toMatch(
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      );
      expect(page.data).toHaveLength(3);
    }
  });

  it('gzips the body only when Accept-Encoding asks for gzip', async () => {
    const url = listUrl(upstream, { limit: '5' });
    const zipped = await rawGet(url, { authorization, 'accept-encoding': 'br, gzip' });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers['content-type']).toBe('application/json; charset=utf-8');
    expect((JSON.parse(gunzipSync(zipped.body).toString('utf8')) as Envelope).data).toHaveLength(5);

    for (const acceptEncoding of [undefined, 'identity', 'gzip;q=0']) {
      const headers: Record<string, string> = acceptEncoding
        ? { authorization, 'accept-encoding': acceptEncoding }
        : { authorization };
      const plain = await rawGet(url, headers);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect((JSON.parse(plain.body.toString('utf8')) as Envelope).data).toHaveLength(5);
    }
  });

  it('applies limit 50 by default, clamps it to 100, and answers a bad limit with a 400 JSON error', async () => {
    const page = async (params: Record<string, string>) =>
      (await (await fetch(listUrl(upstream, params), { headers: { authorization } })).json()) as Envelope;
    expect((await page({})).data).toHaveLength(50);
    expect((await page({ limit: '500' })).data).toHaveLength(100);
    expect((await page({ limit: '1', page_size: '9', page_number: '3', unknown: 'x' })).data).toHaveLength(1);
    for (const limit of ['0', '-1', '2.5', 'abc', '']) {
      const response = await fetch(listUrl(upstream, { limit }), { headers: { authorization } });
      expect(response.status).toBe(400);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      const body = (await response.json()) as { error: { message: string } };
      expect(Object.keys(body)).toEqual(['error']);
      expect(typeof body.error.message).toBe('string');
    }
    const badDate = await fetch(listUrl(upstream, { date_from: '2026-06-01' }), {
      headers: { authorization },
    });
    expect(badDate.status).toBe(400);
  });

  it('binds a cursor to its company and filters, and rejects a changed or tampered cursor with 422', async () => {
    const [root, child, other] = upstream.companies.map((c) => c.id);
    const filters = { status: 'AWAITING', limit: '10' };
    const first = (await (
      await fetch(listUrl(upstream, filters), { headers: headersFor(upstream, child) })
    ).json()) as Envelope;
    const cursor = first.next_cursor ?? '';
    for (const char of ['+', '/', '=', '~', '.', ':']) expect(cursor).toContain(char);

    const attempt = (params: Record<string, string>, companyId = child) =>
      fetch(listUrl(upstream, params), { headers: headersFor(upstream, companyId) });
    expect((await attempt({ ...filters, cursor })).status).toBe(200);
    const tampered = cursor.replace(/~(.)/, (_, c: string) => `~${c === 'A' ? 'B' : 'A'}`);
    const rejected = [
      await attempt({ ...filters, cursor, status: 'COMPLETED' }),
      await attempt({ limit: '10', cursor }),
      await attempt({ ...filters, cursor, date_from: '2026-01-01T00:00:00' }),
      await attempt({ ...filters, cursor }, other),
      await attempt({ ...filters, cursor }, root),
      await attempt({ ...filters, cursor: tampered }),
      await fetch(`${upstream.baseUrl}/payments/?status=AWAITING&limit=10&cursor=${cursor}`, {
        headers: headersFor(upstream, child),
      }),
    ];
    for (const response of rejected) {
      expect(response.status).toBe(422);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await response.json()).toEqual({ error: { message: 'invalid cursor' } });
    }
  });

  it('answers bad credentials with a plain-text 401 and a company outside the tree with a 403 HTML page', async () => {
    for (const headers of [
      {},
      { authorization: basic(credentials.secretId, 'nope') },
      { authorization: 'Bearer x' },
    ]) {
      const response = await fetch(listUrl(upstream), { headers });
      expect(response.status).toBe(401);
      expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(response.headers.get('www-authenticate')).toMatch(/^Basic /);
      expect(await response.text()).toBe('Unauthorized');
    }
    const root = upstream.companies[0]?.id ?? '';
    for (const companyId of ['NL-999999', root, '']) {
      const response = await fetch(listUrl(upstream), {
        headers: { authorization, 'x-company-id': companyId },
      });
      expect(response.status).toBe(403);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await response.text()).toBe('<html><body><h1>403 Forbidden</h1></body></html>');
    }
  });

  it('puts all 11 credential spellings into every error body in echo mode, and none without it', async () => {
    const spellings = credentialSpellings(credentials);
    expect(spellings).toEqual([
      'spec-client-7f3a:s3cr3t pa~ss/wörd?!',
      'c3BlYy1jbGllbnQtN2YzYTpzM2NyM3QgcGF+c3Mvd8O2cmQ/IQ==',
      'c3BlYy1jbGllbnQtN2YzYTpzM2NyM3QgcGF+c3Mvd8O2cmQ/IQ',
      'c3BlYy1jbGllbnQtN2YzYTpzM2NyM3QgcGF-c3Mvd8O2cmQ_IQ==',
      'c3BlYy1jbGllbnQtN2YzYTpzM2NyM3QgcGF-c3Mvd8O2cmQ_IQ',
      Buffer.from('spec-client-7f3a:s3cr3t pa~ss/wörd?!').toString('hex'),
      Buffer.from('spec-client-7f3a:s3cr3t pa~ss/wörd?!').toString('hex').toUpperCase(),
      's3cr3t pa~ss/wörd?!',
      'S3CR3T PA~SS/WÖRD?!',
      's 3 c r 3 t   p a ~ s s / w ö r d ? !',
      's3cr3t%20pa~ss%2Fw%C3%B6rd%3F!',
    ]);
    expect(new Set(spellings).size).toBe(11);
    const wrong = { secretId: credentials.secretId, secretPassword: 'Wr0ng pass/?!' };
    const cases: { params: Record<string, string>; headers: Record<string, string>; status: number }[] = [
      { params: {}, headers: { authorization: basic(wrong.secretId, wrong.secretPassword) }, status: 401 },
      { params: {}, headers: { authorization, 'x-company-id': 'NL-999999' }, status: 403 },
      { params: { limit: '0' }, headers: { authorization }, status: 400 },
      { params: { cursor: 'pc.1:++//AA==~AAAAAAAAAAAAAAAA' }, headers: { authorization }, status: 422 },
      { params: { status: 'ECHO_500' }, headers: { authorization }, status: 500 },
      { params: { status: 'ECHO_502' }, headers: { authorization }, status: 502 },
      { params: { status: 'ECHO_503' }, headers: { authorization }, status: 503 },
    ];
    const echoing = await startSpecUpstream({ credentials, echoCredentials: true, rowsPerCompany: 5 });
    try {
      for (const { params, headers, status } of cases) {
        const presented = status === 401 ? credentialSpellings(wrong) : spellings;
        const echoed = await fetch(listUrl(echoing, params), { headers });
        expect(echoed.status).toBe(status);
        const echoedBody = await echoed.text();
        for (const spelling of presented) expect(echoedBody).toContain(spelling);

        const quiet = await fetch(listUrl(upstream, params), { headers });
        expect(quiet.status).toBe(status);
        const quietBody = await quiet.text();
        for (const spelling of presented) expect(quietBody).not.toContain(spelling);
      }
    } finally {
      await echoing.close();
    }
  });

  it('closes an idle keep-alive connection after about a second, without announcing the timeout', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const response = await rawGet(listUrl(upstream, { limit: '1' }), { authorization }, agent);
      const idleSince = performance.now();
      expect(response.status).toBe(200);
      expect(response.headers['keep-alive']).toBeUndefined();
      expect(response.socket.destroyed).toBe(false);
      const closedAfter = await new Promise<number>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('socket still open after 3 s')), 3_000);
        // Without a Keep-Alive hint and without an agent timeout, nothing on the client side closes the socket.
        response.socket.once('close', () => {
          clearTimeout(timer);
          resolve(performance.now() - idleSince);
        });
      });
      expect(closedAfter).toBeGreaterThan(700);
      expect(closedAfter).toBeLessThan(1_700);
    } finally {
      agent.destroy();
    }
  });

  it('records each request with method, path, first query values and lower-cased headers', async () => {
    const before = upstream.requests.length;
    const child = upstream.companies[2]?.id ?? '';
    await fetch(`${upstream.baseUrl}/payments?limit=2&limit=9&status=FAILED&extra=abc`, {
      headers: { Authorization: authorization, 'X-Company-Id': child },
    });
    expect(upstream.requests.slice(before)).toEqual([
      {
        method: 'GET',
        path: '/v1/payments',
        query: { limit: '2', status: 'FAILED', extra: 'abc' },
        headers: expect.objectContaining({ authorization, 'x-company-id': child }),
      },
    ]);
  });
});
