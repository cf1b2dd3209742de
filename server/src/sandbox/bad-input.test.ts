import { COMPANY_HEADER, PROBLEM_CONTENT_TYPE, problemSchema } from '@payments/shared';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { createSandbox } from './create-sandbox.ts';
import { listUrl, SANDBOX_AUTH } from './testing/test-requests.ts';

// A fixed clock before the sunset: on the real one, the page_number/page_size cases would become 410s on the
// sunset date (2027-07-01) with no change to the code.
const sandbox = createSandbox({ seedCount: 500, seed: 3, now: () => new Date('2026-11-01T12:00:00Z') });
afterAll(() => sandbox.close());

async function expectClientProblem(response: Response, status?: number) {
  expect(response.status).toBeGreaterThanOrEqual(400);
  expect(response.status).toBeLessThan(500);
  if (status !== undefined) expect(response.status).toBe(status);
  expect(response.headers.get('Content-Type')).toBe(PROBLEM_CONTENT_TYPE);
  const body = problemSchema.parse(await response.json());
  expect(body.detail.length).toBeGreaterThan(0);
  return body;
}

const get = (url: string, headers: Record<string, string> = {}) =>
  Promise.resolve(sandbox.app.request(url, { headers: { Authorization: SANDBOX_AUTH, ...headers } }));

const control = fc.integer({ min: 0, max: 0x1f }).map((code) => String.fromCharCode(code));
/** Strings that are wrong for any parameter: a control character somewhere, or far too long, or both. */
const hostile = fc.oneof(
  fc
    .tuple(fc.string({ unit: 'binary' }), control, fc.string({ unit: 'binary' }))
    .map(([a, c, b]) => a + c + b),
  fc.string({ unit: 'binary', minLength: 2_100, maxLength: 5_000 }),
  fc.constantFrom('9'.repeat(400), '-'.repeat(3_000), '%00', '\u202e', '\ud800', '１０'),
);
/** Numbers a parameter whose maximum is `max` must refuse, and things that only look like numbers. */
const numberish = (max: bigint) =>
  fc.oneof(
    fc.bigInt({ min: max + 1n, max: 10n ** 40n }).map(String),
    fc.integer({ max: 0 }).map(String),
    fc
      .double({ noNaN: false })
      .filter((n) => !Number.isInteger(n))
      .map(String),
    fc.constantFrom('', ' 5', '5 ', '+5', '0x10', '1e1', 'NaN', 'Infinity', '10.0', '٣'),
  );

describe('bad input always gets a clear 4xx problem+json, never a 5xx', () => {
  it.each([
    ['limit', 100n],
    ['page_number', 100_000n],
    ['page_size', 100n],
  ] as const)('%s: wrong types, huge values, control characters → 400 naming it', async (name, max) => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(hostile, numberish(max)), async (value) => {
        const body = await expectClientProblem(await get(listUrl({ [name]: value })), 400);
        expect(body.parameter).toBe(name);
      }),
      { numRuns: 60 },
    );
  });

  it('page_number 0 or above its maximum → 400 stating the range', async () => {
    for (const pageNumber of ['0', '000000', '100001']) {
      const body = await expectClientProblem(await get(listUrl({ page_number: pageNumber })), 400);
      expect(body.parameter).toBe('page_number');
      expect(body.detail).toBe('"page_number" must be an integer from 1 to 100000.');
    }
  });

  it.each(['status', 'date_from'])(
    '%s: hostile, lower-case and malformed values → 400 naming it',
    async (name) => {
      const wrongShape = fc.oneof(
        hostile,
        fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }).filter((s) => /[^A-Z_]/.test(s)),
        fc.constantFrom(
          'completed',
          'A'.repeat(33),
          '',
          '2026-02-30T00:00:00',
          '2026-01-01',
          '2026-01-01T00:00:00Z',
        ),
      );
      await fc.assert(
        fc.asyncProperty(wrongShape, async (value) => {
          const body = await expectClientProblem(await get(listUrl({ [name]: value })), 400);
          expect(body.parameter).toBe(name);
        }),
        { numRuns: 60 },
      );
    },
  );

  it('cursor: any string it did not issue → 400 invalid_cursor', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(hostile, fc.string({ unit: 'binary' }), fc.base64String({ minLength: 44 })),
        async (value) => {
          const body = await expectClientProblem(await get(listUrl({ cursor: value })), 400);
          expect(body.code).toBe('invalid_cursor');
        },
      ),
      { numRuns: 80 },
    );
  });

  it('unknown query parameters, whatever their name → 400 naming it', async () => {
    const known = new Set(['limit', 'cursor', 'status', 'date_from', 'page_number', 'page_size']);
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: 'binary', maxLength: 3_000 }).filter((s) => !known.has(s)),
        fc.string(),
        async (name, value) => {
          const body = await expectClientProblem(await get(listUrl({ [name]: value })), 400);
          expect(body.code).toBe('invalid_parameter');
        },
      ),
      { numRuns: 60 },
    );
  });

  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty'])(
    'the parameter name %s → 400 naming it',
    async (name) => {
      const body = await expectClientProblem(await get(`/v1/payments/?${name}=1`), 400);
      expect(body.parameter).toBe(name);
    },
  );

  it('repeated parameters → 400', async () => {
    for (const query of [
      'limit=1&limit=1',
      'status=FAILED&status=FAILED',
      'cursor=a&cursor=b',
      'date_from=x&date_from=y',
    ]) {
      await expectClientProblem(await get(`/v1/payments/?${query}`), 400);
    }
  });

  it('raw, malformed query strings → 400 or a normal page, never 5xx', async () => {
    for (const search of [
      'limit',
      '=',
      '%',
      '%ZZ=1',
      'limit=%ZZ',
      'limit=%E2%82',
      '%00=1',
      'a=b=c',
      'limit=1%00',
      '&&&&',
    ]) {
      const response = await get(`/v1/payments/?${search}`);
      if (response.status === 200) expect(search).toBe('&&&&');
      else await expectClientProblem(response, 400);
    }
  });

  it('X-Company-Id: any value outside the caller’s tree → 403 problem+json', async () => {
    const own = new Set(sandbox.tenants[0]?.companies.map((c) => c.id));
    // Header values are byte strings without NUL, CR or LF, and are trimmed in transit.
    const headerValue = fc
      .string({
        unit: fc
          .integer({ min: 1, max: 0xff })
          .filter((c) => c !== 10 && c !== 13)
          .map((c) => String.fromCharCode(c)),
        maxLength: 3_000,
      })
      .map((s) => s.trim())
      .filter((s) => !own.has(s));
    await fc.assert(
      fc.asyncProperty(headerValue, async (value) => {
        await expectClientProblem(await get('/v1/payments/', { [COMPANY_HEADER]: value }), 403);
      }),
      { numRuns: 80 },
    );
  });

  it('Authorization: any value but the issued credentials → 401 problem+json', async () => {
    const headerValue = fc.oneof(
      fc.string({
        unit: fc
          .integer({ min: 1, max: 0xff })
          .filter((c) => c !== 10 && c !== 13)
          .map((c) => String.fromCharCode(c)),
        maxLength: 3_000,
      }),
      fc.string({ unit: 'binary', maxLength: 500 }).map((s) => `Basic ${Buffer.from(s).toString('base64')}`),
      fc.string({ maxLength: 500 }).map((s) => `Basic ${s}`),
    );
    await fc.assert(
      fc.asyncProperty(headerValue, async (value) => {
        const response = await sandbox.app.request('/v1/payments/', { headers: { Authorization: value } });
        await expectClientProblem(response, 401);
      }),
      { numRuns: 80 },
    );
  });
});
