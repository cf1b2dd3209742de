import { paymentPageSchema } from '@payments/shared';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodePageJson, type PageJson } from '../upstream/index.ts';
import { pageBody } from './page-body.ts';

const UPSTREAM_CURSOR = 'upstream-cursor-7f3a';
const TOKEN = 'c1.our-token';

/** What the upstream client holds after a 200 with this body, for forwarding. */
function upstream(text: string): PageJson {
  const decoded = decodePageJson(Buffer.from(text));
  if (!decoded.ok) throw new Error(decoded.detail);
  return decoded.value;
}

/** The page the schema makes of the same body: what the browser must be told. */
const validated = (text: string) => paymentPageSchema.parse(JSON.parse(text));

const written = (body: Buffer) => body.toString('utf8');

const records = [
  { id: 'pay_1', amount: 1200, currency: 'EUR', description: '東京オフィス賃料' },
  { id: 'pay_2', amount: 5, currency: 'JPY', counterparty: null, extra: { nested: ['"has_more":true}'] } },
];

describe('page body', () => {
  it('forwards the upstream bytes of data as they came, with our cursor in place of the upstream one', () => {
    // `\u00e9` is kept as written: proof that data was not serialised again.
    const text = `{"data":[{"id":"pay_1","description":"caf\\u00e9"}],"next_cursor":"${UPSTREAM_CURSOR}","has_more":true}`;
    const out = written(pageBody(upstream(text), TOKEN));
    expect(out).toBe(
      `{"data":[{"id":"pay_1","description":"caf\\u00e9"}],"next_cursor":"${TOKEN}","has_more":true}`,
    );
    expect(out).not.toContain(UPSTREAM_CURSOR);
  });

  it('forwards the last page the same way', () => {
    const text = JSON.stringify({ data: records, next_cursor: null, has_more: false });
    expect(JSON.parse(written(pageBody(upstream(text), null)))).toEqual({
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
    [
      'a member the envelope does not have',
      JSON.stringify({ data: records, next_cursor: UPSTREAM_CURSOR, has_more: true, debug: 'x' }),
    ],
    [
      'a record with an own __proto__ key',
      `{"data":[{"id":1,"__proto__":{"admin":true}}],"next_cursor":"${UPSTREAM_CURSOR}","has_more":true}`,
    ],
  ])('means exactly the validated page for %s, and nothing else the upstream sent', (_name, text) => {
    const out = written(pageBody(upstream(text), TOKEN));
    expect(JSON.parse(out)).toEqual({ data: validated(text).data, next_cursor: TOKEN, has_more: true });
    expect(out).not.toContain(UPSTREAM_CURSOR);
    expect(out).not.toContain('unchecked');
    expect(out).not.toContain('debug');
    expect(out).not.toContain('__proto__');
  });

  it('forwards records whatever fields they hold, the cursor field name among them', () => {
    const data = [{ id: 1, next_cursor: 'x', has_more: false, data: [']', '"'] }];
    const text = JSON.stringify({ data, next_cursor: UPSTREAM_CURSOR, has_more: true });
    expect(JSON.parse(written(pageBody(upstream(text), TOKEN)))).toEqual({
      data,
      next_cursor: TOKEN,
      has_more: true,
    });
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
          const text = JSON.stringify(envelope, null, pretty ? 1 : undefined);
          const next = upstreamCursor === null ? null : ourCursor;
          const out = written(pageBody(upstream(text), next));
          const page = validated(text);
          expect(JSON.parse(out)).toEqual({ data: page.data, next_cursor: next, has_more: page.has_more });
          if (
            upstreamCursor !== null &&
            upstreamCursor.length > 3 &&
            !JSON.stringify(data).includes(upstreamCursor)
          )
            expect(out).not.toContain(JSON.stringify(upstreamCursor));
        },
      ),
    );
  });
});
