import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import {
  COMPANY_ID_PATTERN,
  CURSOR_PATTERN,
  isDateTime,
  LIMIT_MAX,
  LIMIT_MIN,
  paymentPageSchema,
  STATUS_PATTERN,
} from '@payments/shared';
import fc from 'fast-check';
import { Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../config/settings.ts';
import { serveOnLoopback } from '../upstream/testing/serve-on-loopback.ts';
import { createHarness, type Harness } from './testing/bff-harness.ts';

/** Distinctive upstream credentials, so any leak is unmistakable. */
const SECRET_ID = 'scan-id-7Qx2vP';
const SECRET_PASSWORD = 'scan-pw-Lm93Zk-never-shown';
/** What `pnpm start` uses: the sandbox defaults. These must not be baked into the SPA either. */
const DEFAULT_ID = 'sandbox_id';
const DEFAULT_PASSWORD = 'sandbox_secret';

function needles(id: string, password: string): string[] {
  const forms = (text: string) => [
    text,
    Buffer.from(text).toString('base64'),
    Buffer.from(text).toString('base64url'),
    Buffer.from(text).toString('base64').replace(/=+$/, ''),
  ];
  return [...forms(`${id}:${password}`), ...forms(password), ...forms(id)];
}

function leaks(text: string, list: readonly string[]): string[] {
  return list.filter((needle) => text.includes(needle));
}

async function dump(response: Response): Promise<string> {
  const headers = [...response.headers].map(([k, v]) => `${k}: ${v}`).join('\n');
  return `${response.status} ${response.statusText}\n${headers}\n\n${await response.text()}`;
}

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

let h: Harness;
let cookie: string;

beforeAll(async () => {
  h = await createHarness({
    sandbox: { credentials: { sandbox: { secretId: SECRET_ID, secretPassword: SECRET_PASSWORD } } },
  });
  cookie = await h.signIn();
});
afterAll(async () => {
  await h.close();
});

describe('credentials never leave the BFF', () => {
  it('no route, success or failure, shows them in status, headers or body; nor does any log line', async () => {
    const secrets = [...needles(SECRET_ID, SECRET_PASSWORD), h.settings.APP_SECRET];
    const first = paymentPageSchema.parse(await (await h.call('/api/payments?limit=2', { cookie })).json());
    const seen: string[] = [];
    const routes = h.bff.app.routes.filter((r) => r.method !== 'ALL' && !r.path.includes('*'));
    expect(routes.length).toBeGreaterThanOrEqual(8);
    // DELETE /api/session ends the session it is sent with: the walk of every route uses one of its own.
    const walker = await h.signIn();
    for (const { method, path } of routes) {
      for (const who of [walker, undefined]) {
        const body = method === 'POST' ? JSON.stringify({ username: 'demo', password: 'wrong' }) : undefined;
        seen.push(await dump(await h.call(path, { method, cookie: who, body })));
      }
    }
    for (const path of [
      `/api/payments?limit=2&cursor=${encodeURIComponent(first.next_cursor ?? '')}`,
      '/api/payments?limit=999',
      '/api/payments?cursor=forged',
      '/',
      '/some/deep/link',
    ]) {
      seen.push(await dump(await h.call(path, { cookie, headers: { accept: 'text/html' } })));
    }
    // An upstream that rejects our credentials must not make the BFF show them.
    const rejected = h.make({
      upstream: { credentials: { secretId: SECRET_ID, secretPassword: `${SECRET_PASSWORD}x` } },
    });
    seen.push(
      await dump(await rejected.app.request('/api/payments', { headers: { 'X-CSRF': '1', cookie } })),
    );
    seen.push(await dump(await rejected.app.request('/readyz')));
    await rejected.close();
    // Nor one that echoes them in its error bodies, raw and decoded, with every kind of failure status: the BFF
    // logs the status and content type of such answers, never their bodies, and answers with its own problem.
    const statuses = [400, 401, 403, 404, 429, 500, 502, 503];
    let answered = 0;
    const echo = new Hono().all('*', (c) => {
      const authorization = c.req.header('authorization') ?? '';
      const decoded = Buffer.from(authorization.replace(/^Basic /, ''), 'base64').toString();
      const status = statuses[answered++ % statuses.length] as ContentfulStatusCode;
      return c.text(`denied ${authorization} for ${decoded}`, status);
    });
    const hostile = await serveOnLoopback(echo);
    const echoing = h.make({
      upstream: {
        baseUrl: `${hostile.origin}/v1`,
        budgets: { list: { retries: 0, deadlineMs: 5_000 }, export: { retries: 0, deadlineMs: 5_000 } },
      },
    });
    try {
      for (let i = 0; i < statuses.length; i += 1)
        seen.push(
          await dump(await echoing.app.request('/api/payments', { headers: { 'X-CSRF': '1', cookie } })),
        );
      seen.push(
        await dump(
          await echoing.app.request('/api/payments/export.csv', { headers: { 'X-CSRF': '1', cookie } }),
        ),
      );
      seen.push(await dump(await echoing.app.request('/readyz')));
      expect(answered).toBe(statuses.length + 2);
      // Each failed answer was logged, by its status and content type.
      expect(h.logs.filter((line) => line.includes('"content_type":"text/plain'))).toHaveLength(
        statuses.length + 2,
      );
    } finally {
      await echoing.close();
      await hostile.close();
    }
    const all = `${seen.join('\n')}\n${h.logs.join('\n')}`;
    expect(leaks(all, secrets)).toEqual([]);
    expect(h.logs.length).toBeGreaterThan(10);
    expect(all).not.toContain(cookie.split('=')[1]);
  });

  it('no built asset, and no file of the web source, holds the credentials in use', async () => {
    const dist = join(REPO_ROOT, 'web', 'dist');
    const secrets = [...needles(SECRET_ID, SECRET_PASSWORD), ...needles(DEFAULT_ID, DEFAULT_PASSWORD)];
    const built = existsSync(join(dist, 'index.html'));
    // `pnpm test` builds the SPA first and sets REQUIRE_WEB_DIST, so there the scan can never be skipped.
    if (process.env.REQUIRE_WEB_DIST) expect(built, `${dist} must be built before this test`).toBe(true);
    if (built) {
      const withSpa = h.make({ settings: { WEB_DIST_DIR: dist } });
      try {
        const paths = filesUnder(dist).map((file) => `/${relative(dist, file).split(sep).join('/')}`);
        expect(paths).toContain('/index.html');
        for (const path of paths) {
          const response = await withSpa.app.request(path);
          // source maps and the compressed copies are not served under their own names
          expect([path, response.status]).toEqual([path, /\.(map|br|gz)$/.test(path) ? 404 : 200]);
          expect([path, leaks(await dump(response), secrets)]).toEqual([path, []]);
        }
      } finally {
        await withSpa.close();
      }
    }
    const sources = filesUnder(join(REPO_ROOT, 'web', 'src'));
    for (const file of sources) {
      expect([file, leaks(readFileSync(file, 'latin1'), secrets)]).toEqual([file, []]);
    }
  });
});

describe('bad input fuzzing', () => {
  const NAMES = ['limit', 'cursor', 'status', 'date_from', 'page_number', 'page_size', 'x', ''];
  const anyText = fc.string({ unit: 'binary', maxLength: 40 });
  const plausible = fc.oneof(
    anyText,
    fc.constantFrom(
      '1',
      '50',
      '100',
      '0',
      '101',
      '-1',
      '1e2',
      'COMPLETED',
      'AWAITING',
      'completed',
      '2026-01-01T00:00:00',
      '2026-02-30T00:00:00',
    ),
  );
  const headerText = fc.stringMatching(/^[\x20-\x7e]{0,60}$/);
  const rawQuery = fc
    .array(
      fc.oneof(
        fc.constantFrom('%', '%z', '%zz', '%2', '%E0%A4', '%C0%AF', '%00', '%FF', '%25', '%26', '%3D'),
        fc.constantFrom('&', '=', '+', ';', '?', '&&', '=='),
        fc.constantFrom(...NAMES.filter(Boolean), 'LIMIT', 'limit[]', 'cursor.x'),
        fc.constantFrom('1', '100', 'COMPLETED', '2026-01-01T00:00:00', 'c1.AAAA'),
      ),
      { maxLength: 12 },
    )
    .map((parts) => parts.join(''));

  it('random query parameters and headers never give a 500, and nothing invalid reaches the upstream', async () => {
    const real = paymentPageSchema.parse(await (await h.call('/api/payments?limit=1', { cookie })).json());
    const realCursor = real.next_cursor ?? '';
    h.recorded.length = 0;
    const allowed = new Set(h.companies.map((c) => c.id));
    await fc.assert(
      fc.asyncProperty(
        // Weighted towards requests that pass validation, so that a good share reaches the upstream and the
        // "nothing invalid forwarded" half of the property is exercised on every run, not by luck.
        fc.oneof(
          { arbitrary: fc.constant(''), weight: 2 },
          {
            arbitrary: fc
              .array(fc.tuple(fc.constantFrom(...NAMES), fc.oneof(plausible, fc.constant(realCursor))), {
                maxLength: 5,
              })
              .map((pairs) => String(new URLSearchParams(pairs))),
            weight: 3,
          },
          // Query strings no encoder would write: broken escapes, bare names, stray separators.
          { arbitrary: rawQuery, weight: 2 },
        ),
        fc.record(
          {
            'X-Company-Id': fc.oneof(
              headerText,
              fc.constantFrom('acme', 'acme-eu', 'globex', 'acme, acme-eu'),
            ),
            Authorization: headerText,
            'X-Forwarded-For': headerText,
            'X-Forwarded-Proto': headerText,
            'X-CSRF': fc.oneof({ arbitrary: fc.constant('1'), weight: 3 }, fc.constantFrom('0', '', '1, 1')),
          },
          { requiredKeys: ['X-CSRF'] },
        ),
        fc.constantFrom('/api/payments', '/api/payments/export.csv', '/api/config', '/api/session'),
        async (query, headers, path) => {
          const response = await h.bff.app.request(`${path}?${query}`, {
            headers: { cookie, ...headers },
          });
          await response.arrayBuffer();
          expect(response.status).toBeLessThan(500);
        },
      ),
      { numRuns: 150 },
    );
    const basic = `Basic ${Buffer.from(`${SECRET_ID}:${SECRET_PASSWORD}`).toString('base64')}`;
    expect(h.recorded.length).toBeGreaterThan(0);
    for (const forwarded of h.recorded) {
      expect(Object.keys(forwarded.headers).sort()).toEqual(
        expect.arrayContaining(['accept', 'accept-encoding', 'authorization']),
      );
      // Ours only: nothing the browser sent.
      const ours = ['accept', 'accept-encoding', 'authorization', 'host', 'connection', 'x-company-id'];
      for (const name of Object.keys(forwarded.headers)) expect(ours).toContain(name);
      expect(forwarded.headers.authorization).toBe(basic);
      const company = forwarded.headers['x-company-id'];
      if (company !== undefined) {
        expect(COMPANY_ID_PATTERN.test(company)).toBe(true);
        expect(allowed.has(company)).toBe(true);
      }
      for (const [name, values] of Object.entries(forwarded.query)) {
        expect(['limit', 'cursor', 'status', 'date_from']).toContain(name);
        expect(values).toHaveLength(1);
        const value = values[0] ?? '';
        if (name === 'limit') expect(Number(value) >= LIMIT_MIN && Number(value) <= LIMIT_MAX).toBe(true);
        if (name === 'status') expect(STATUS_PATTERN.test(value)).toBe(true);
        if (name === 'date_from') expect(isDateTime(value)).toBe(true);
        if (name === 'cursor') expect(CURSOR_PATTERN.test(value)).toBe(true);
      }
    }
  });
});
