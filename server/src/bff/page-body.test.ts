import { type PaymentPage, paymentPageSchema } from '@payments/shared';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pageBody } from './page-body.ts';

const UPSTREAM_CURSOR = 'upstream-cursor-7f3a';
const TOKEN = 'c1.our-token';

/** What the upstream client holds after a 200: the bytes, and the page they validated as. */
function upstream(text: string): { page: PaymentPage; bytes: Uint8Array<ArrayBuffer> } {
  return { page: paymentPageSchema.parse(JSON.parse(text)), bytes: Buffer.from(text) };
}

const records = [
  { id: 'pay_1', amount: 1200, currency: 'EUR', description: '東京オフィス賃料' },
  { id: 'pay_2', amount: 5, currency: 'JPY', counterparty: null, extra: { nested: ['"has_more":true}'] } },
];

describe('page body', () => {
  it('forwards the upstream bytes of data as they came, with our cursor in place of the upstream one', () => {
    // `\u00e9` is kept as written: proof that data was not serialised again.
    const text = `{"data":[{"id":"pay_1","description":"caf\\u00e9"}],"next_cursor":"${UPSTREAM_CURSOR}","has_more":true}`;
    const { page, bytes } = upstream(text);
    const body = pageBody(page, bytes, TOKEN);
    expect(body).toBeInstanceOf(Uint8Array);
    const out = Buffer.from(body).toString('utf8');
    expect(out).toBe(
      `{"data":[{"id":"pay_1","description":"caf\\u00e9"}],"next_cursor":"${TOKEN}","has_more":true}`,
    );
    expect(out).not.toContain(UPSTREAM_CURSOR);
  });

  it('forwards the last page the same way', () => {
    const { page, bytes } = upstream(JSON.stringify({ data: records, next_cursor: null, has_more: false }));
    const body = pageBody(page, bytes, null);
    expect(body).toBeInstanceOf(Uint8Array);
    expect(JSON.parse(Buffer.from(body).toString('utf8'))).toEqual({
      data: records,
      next_cursor: null,
      has_more: false,
    });
  });

  it.each([
    [
      'spaces and line breaks',
      JSON.stringify({ data: records, next_cursor: UPSTREAM_CURSOR, has_more: true }, null, 2),
    ],
    ['another member order', JSON.stringify({ next_cursor: UPSTREAM_CURSOR, has_more: true, data: records })],
    [
      'the cursor written with escapes',
      `{"data":[],"next_cursor":"upstream-cursor-\\u0037f3a","has_more":true}`,
    ],
    [
      'a duplicated cursor member',
      `{"data":[],"next_cursor":"${UPSTREAM_CURSOR}-old","has_more":true,"next_cursor":"${UPSTREAM_CURSOR}","has_more":true}`,
    ],
    [
      'a duplicated cursor member spelled with an escape',
      `{"data":[],"next\\u005fcursor":"${UPSTREAM_CURSOR}","has_more":true,"next_cursor":"${UPSTREAM_CURSOR}","has_more":true}`,
    ],
    [
      'a duplicated data member (only the last one is validated)',
      `{"data":[{"unchecked":true}],"data":[{"id":1}],"next_cursor":"${UPSTREAM_CURSOR}","has_more":true}`,
    ],
  ])('serialises the page again for %s, with the same meaning', (_name, text) => {
    const { page, bytes } = upstream(text);
    const body = pageBody(page, bytes, TOKEN);
    expect(typeof body).toBe('string');
    expect(JSON.parse(body as string)).toEqual({ data: page.data, next_cursor: TOKEN, has_more: true });
    expect(body).not.toContain(UPSTREAM_CURSOR);
    expect(body).not.toContain('unchecked');
  });

  it('forwards records whatever fields they hold, the cursor field name among them', () => {
    const data = [{ id: 1, next_cursor: 'x', has_more: false, data: [']', '"'] }];
    const { page, bytes } = upstream(JSON.stringify({ data, next_cursor: UPSTREAM_CURSOR, has_more: true }));
    const body = pageBody(page, bytes, TOKEN);
    expect(body).toBeInstanceOf(Uint8Array);
    expect(JSON.parse(Buffer.from(body).toString('utf8'))).toEqual({
      data,
      next_cursor: TOKEN,
      has_more: true,
    });
  });

  it('serialises the validated page when the bytes are not to be reused (members validation dropped)', () => {
    const text = JSON.stringify({ data: records, next_cursor: UPSTREAM_CURSOR, has_more: true, debug: 'x' });
    const { page } = upstream(text);
    const body = pageBody(page, undefined, TOKEN);
    expect(JSON.parse(body as string)).toEqual({ data: records, next_cursor: TOKEN, has_more: true });
    expect(body).not.toContain('debug');
  });

  it('always means exactly the validated page with our cursor, whatever the records hold', () => {
    const json = fc.jsonValue();
    const record = fc.record(
      { id: fc.oneof(fc.string({ minLength: 1 }), fc.integer()), note: fc.string(), other: json },
      { requiredKeys: ['id'] },
    );
    fc.assert(
      fc.property(
        fc.array(record, { maxLength: 5 }),
        fc.option(fc.string({ minLength: 1 }), { nil: null }),
        fc.option(fc.string({ minLength: 1 }), { nil: null }),
        fc.boolean(),
        (data, upstreamCursor, ourCursor, pretty) => {
          const envelope = { data, next_cursor: upstreamCursor, has_more: upstreamCursor !== null };
          const { page, bytes } = upstream(JSON.stringify(envelope, null, pretty ? 1 : undefined));
          const next = upstreamCursor === null ? null : ourCursor;
          const body = pageBody(page, bytes, next);
          if (!pretty) expect(body).toBeInstanceOf(Uint8Array);
          const text = typeof body === 'string' ? body : Buffer.from(body).toString('utf8');
          expect(JSON.parse(text)).toEqual({ data: page.data, next_cursor: next, has_more: page.has_more });
          if (
            upstreamCursor !== null &&
            upstreamCursor.length > 3 &&
            !JSON.stringify(data).includes(upstreamCursor)
          )
            expect(text).not.toContain(JSON.stringify(upstreamCursor));
        },
      ),
    );
  });
});
