import { KNOWN_PAYMENT_FIELDS, paymentPageSchema } from '@payments/shared';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scanPaymentPage } from './page-scanner.ts';

const encoder = new TextEncoder();
/** Decodes as the fallback path does (a leading byte order mark is dropped). */
const decoder = new TextDecoder();
const scanText = (text: string) => scanPaymentPage(encoder.encode(text));
/** A page with `data` spliced in as written, and a null cursor unless told. */
const page = (data: string, cursor = 'null', hasMore = 'false') =>
  `{"data":${data},"next_cursor":${cursor},"has_more":${hasMore}}`;

/** The keys of the top-level object as written, repeats included (JSON.parse keeps only the last). */
function topLevelKeys(json: string): string[] {
  const keys: string[] = [];
  let depth = 0;
  let expectKey = false;
  for (let i = 0; i < json.length; i++) {
    const char = json[i];
    if (char === '"') {
      let end = i + 1;
      while (json[end] !== '"') end += json[end] === '\\' ? 2 : 1;
      if (depth === 1 && expectKey) keys.push(JSON.parse(json.slice(i, end + 1)));
      expectKey = false;
      i = end;
    } else if (char === '{' || char === '[') {
      depth++;
      expectKey = depth === 1;
    } else if (char === '}' || char === ']') depth--;
    else if (char === ',' && depth === 1) expectKey = true;
  }
  return keys;
}

function hasProtoKey(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(hasProtoKey);
  if (typeof value !== 'object' || value === null) return false;
  return Object.hasOwn(value, '__proto__') || Object.values(value).some(hasProtoKey);
}

/**
 * When the scanner accepts `bytes`, asserts what its answer promises: the full path accepts the same page, with
 * exactly the three members, each written once, the same data at the offsets, and no `__proto__` key in data.
 * Returns whether the scanner accepted.
 */
function expectSoundIfAccepted(bytes: Uint8Array): boolean {
  const scanned = scanPaymentPage(bytes);
  if (scanned === null) return false;
  const text = decoder.decode(bytes);
  const parsed = JSON.parse(text);
  expect(paymentPageSchema.safeParse(parsed).success).toBe(true);
  expect(topLevelKeys(text).sort()).toEqual(['data', 'has_more', 'next_cursor']);
  const dataBytes = bytes.subarray(scanned.dataStart, scanned.dataEnd);
  expect([dataBytes[0], dataBytes.at(-1)]).toEqual([0x5b, 0x5d]);
  expect(JSON.parse(decoder.decode(dataBytes))).toEqual(parsed.data);
  expect(scanned.count).toBe(parsed.data.length);
  expect(scanned.next_cursor).toBe(parsed.next_cursor);
  expect(scanned.has_more).toBe(parsed.has_more);
  expect(hasProtoKey(parsed.data)).toBe(false);
  return true;
}

// Generators of valid pages, as JSON.stringify writes them.

const knownNames: readonly string[] = KNOWN_PAYMENT_FIELDS;

/** Strings JSON.stringify writes without escapes: what keys and cursors look like in practice. */
const plainString = fc
  .string({ unit: 'binary', maxLength: 12 })
  .filter((text) => JSON.stringify(text) === `"${text}"`);
const plainKey = plainString.filter((key) => key !== '__proto__');
const anyString = fc.string({ unit: 'binary', maxLength: 20 });
const finiteNumber = fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }));
const { json: plainJson } = fc.letrec((tie) => ({
  json: fc.oneof(
    { depthSize: 'small', maxDepth: 4 },
    fc.constant(null),
    fc.boolean(),
    finiteNumber,
    anyString,
    fc.array(tie('json'), { maxLength: 3 }),
    fc.dictionary(plainKey, tie('json'), { maxKeys: 3 }),
  ),
}));
const nullableString = fc.option(anyString, { nil: null });
const knownFields = fc.record(
  {
    id: fc.oneof(
      anyString.filter((id) => id !== ''),
      finiteNumber,
    ),
    company_id: anyString,
    status: anyString,
    amount: finiteNumber,
    currency: anyString,
    created_at: anyString,
    description: nullableString,
    counterparty: nullableString,
    reference: nullableString,
  },
  { requiredKeys: ['id'] },
);
const unknownFields = fc.dictionary(
  plainKey.filter((key) => !knownNames.includes(key)),
  plainJson,
  { maxKeys: 3 },
);
const validRecord = fc
  .tuple(unknownFields, knownFields)
  .map(([unknown, known]) => ({ ...unknown, ...known }));
const validPage = fc
  .record({
    data: fc.array(validRecord, { maxLength: 30 }),
    next_cursor: fc.option(
      plainString.filter((cursor) => cursor !== ''),
      { nil: null },
    ),
    order: fc.shuffledSubarray(['data', 'next_cursor', 'has_more'] as const, { minLength: 3 }),
  })
  .map(({ data, next_cursor, order }) => {
    const members = { data, next_cursor, has_more: next_cursor !== null };
    return Object.fromEntries(order.map((name) => [name, members[name]])) as typeof members;
  });
const indent = fc.constantFrom(undefined, 2, '\t');

/** JSON.stringify(page, null, space), and where its data array is, found by writing a marker in its place. */
function stringifyPage(value: { data: unknown[] }, space: string | number | undefined) {
  const text = JSON.stringify(value, null, space);
  const [before = '', after] = JSON.stringify({ ...value, data: '\0' }, null, space).split('"\\u0000"');
  const pad = typeof space === 'number' ? ' '.repeat(space) : (space ?? '');
  const dataText = JSON.stringify(value.data, null, space).replaceAll('\n', `\n${pad}`);
  expect(before + dataText + after).toBe(text);
  const dataStart = encoder.encode(before).length;
  return { text, dataStart, dataEnd: dataStart + encoder.encode(dataText).length };
}

describe('scanPaymentPage accepts', () => {
  it('JSON.stringify of any valid page with plain keys and cursor, in any member order and indentation, with the right offsets, count, cursor and has_more', () => {
    fc.assert(
      fc.property(validPage, indent, (value, space) => {
        const { text, dataStart, dataEnd } = stringifyPage(value, space);
        const bytes = encoder.encode(text);
        expect(scanPaymentPage(bytes)).toEqual({
          dataStart,
          dataEnd,
          count: value.data.length,
          next_cursor: value.next_cursor,
          has_more: value.has_more,
        });
        expectSoundIfAccepted(bytes);
      }),
      { numRuns: 500 },
    );
  });

  it.each([
    [
      'whitespace between all tokens',
      ' \r\n{\t"has_more" : true ,\n "next_cursor":"c" , "data" : [ { "id" : 1 } , {"id":"2"} ] }\n ',
    ],
    [
      'every kind of escape in string values',
      '{"data":[{"id":"\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\uD83D\\uDE00","x":["\\u0000"]}],"next_cursor":null,"has_more":false}',
    ],
    [
      'finite numbers written with exponents',
      '{"data":[{"id":-0.5e-400,"amount":1.7976931348623157e+308}],"next_cursor":null,"has_more":false}',
    ],
    [
      'nullable known fields set to null',
      '{"data":[{"id":"a","description":null,"counterparty":null,"reference":null}],"next_cursor":null,"has_more":false}',
    ],
    [
      'a repeated record field when every occurrence has the right type',
      '{"data":[{"id":"a","amount":1,"amount":2}],"next_cursor":null,"has_more":false}',
    ],
    [
      'nesting of 32 levels, the bound',
      `{"data":[{"id":"a","x":${'['.repeat(29)}${']'.repeat(29)}}],"next_cursor":null,"has_more":false}`,
    ],
  ])('%s', (_, text) => {
    expect(scanText(text)).not.toBeNull();
    expect(expectSoundIfAccepted(encoder.encode(text))).toBe(true);
  });

  it('a cursor with non-ASCII text and a leading U+FEFF, decoded as JSON.parse decodes it', () => {
    const text = '{"data":[],"next_cursor":"\uFEFFカーソル€","has_more":true}';
    expect(scanText(text)?.next_cursor).toBe('\uFEFFカーソル€');
  });

  it('a cursor with invalid UTF-8, decoded as the whole body would be', () => {
    const bytes = Uint8Array.of(
      ...encoder.encode('{"data":[],"next_cursor":"a'),
      0xe3,
      0x81,
      ...encoder.encode('","has_more":true}'),
    );
    expect(scanPaymentPage(bytes)?.next_cursor).toBe('a\uFFFD');
    expect(expectSoundIfAccepted(bytes)).toBe(true);
  });
});

describe('scanPaymentPage reads keys and string bodies exactly', () => {
  /** A record with the known fields before `name` in the usual order (so `name` is the one expected next). */
  function recordWith(name: string, key: string, value: string): string {
    const before = knownNames.slice(0, Math.max(0, knownNames.indexOf(name)));
    const fields = before.map((field) => `"${field}":${field === 'amount' ? '1' : '"s"'}`);
    fields.push(`"${key}":${value}`);
    if (before.length === 0) fields.push('"id":"x"');
    return `{${fields.join(',')}}`;
  }

  it('types a field only under its exact name: a key one byte off, shorter or longer is an unknown field', () => {
    for (const name of [...KNOWN_PAYMENT_FIELDS, '__proto__']) {
      expect(scanText(page(`[${recordWith(name, name, '{}')}]`)), name).toBeNull();
      const variants = [name.slice(0, -1), name.slice(1), `${name}_`, `_${name}`];
      for (let k = 0; k < name.length; k++) variants.push(`${name.slice(0, k)}X${name.slice(k + 1)}`);
      for (const variant of variants)
        expect(scanText(page(`[${recordWith(name, variant, '{}')}]`)), variant).not.toBeNull();
    }
  });

  it('refuses a top-level member whose name is one byte off', () => {
    for (const name of ['data', 'next_cursor', 'has_more'])
      for (let k = 0; k < name.length; k++) {
        const text = page('[]').replace(`"${name}"`, `"${name.slice(0, k)}X${name.slice(k + 1)}"`);
        expect(scanText(text), text).toBeNull();
      }
  });

  it('accepts a byte in a string body exactly when it is not ", \\ or a control character, at any position', () => {
    for (let byte = 0; byte < 256; byte++)
      for (let offset = 0; offset < 8; offset++) {
        const bytes = encoder.encode(page(`[{"id":"x","note":"${'a'.repeat(offset)}#${'a'.repeat(8)}"}]`));
        bytes[bytes.indexOf(0x23)] = byte;
        expect(scanPaymentPage(bytes) !== null, `byte ${byte} at ${offset}`).toBe(
          byte >= 0x20 && byte !== 0x22 && byte !== 0x5c,
        );
        expectSoundIfAccepted(bytes);
      }
  });
});

describe('scanPaymentPage refuses (returns null)', () => {
  it.each([
    ['a repeated data member', '{"data":[],"data":[{"id":"x"}],"next_cursor":null,"has_more":false}'],
    [
      'a repeated cursor member spelled with an escape',
      '{"data":[],"next_cursor":"c","has_more":true,"next\\u005fcursor":null}',
    ],
    ['a repeated has_more member', '{"data":[],"next_cursor":null,"has_more":false,"has_more":false}'],
    ['an unknown top-level member', '{"data":[],"next_cursor":null,"has_more":false,"total":0}'],
    ['a missing member', '{"data":[],"next_cursor":null}'],
    ['has_more=true with a null cursor', page('[]', 'null', 'true')],
    ['has_more=false with a string cursor', page('[]', '"c"', 'false')],
    ['an empty-string cursor', page('[]', '""', 'true')],
    ['a cursor with an escape', page('[]', '"c\\u0021"', 'true')],
    ['has_more that is not a boolean', page('[]', 'null', '"false"')],
    ['data that is not an array', page('{}')],
    ['a __proto__ key in a record', page('[{"id":"x","__proto__":{}}]')],
    ['a __proto__ key nested in a record', page('[{"id":"x","meta":[{"__proto__":1}]}]')],
    ['a record key spelled with an escape', page('[{"id":"x","\\u005f_proto__":1}]')],
    ['a record that is not an object', page('[{"id":"x"},1]')],
    ['a null record', page('[null]')],
    ['a record without its opening brace', page('[,"id":"x"}]')],
    ['a record without id', page('[{"amount":1}]')],
    ['an empty record', page('[{}]')],
    ['an empty-string id', page('[{"id":""}]')],
    ['a null id', page('[{"id":null}]')],
    ['an empty-string id repeated after a good one', page('[{"id":"","id":"x"}]')],
    ['an amount that is a string', page('[{"id":"x","amount":"1"}]')],
    ['a status that is null', page('[{"id":"x","status":null}]')],
    ['a description that is a number', page('[{"id":"x","description":1}]')],
    ['an amount that overflows to Infinity', page('[{"id":"x","amount":1e400}]')],
    ['an id that overflows to -Infinity', page('[{"id":-1.8e308}]')],
    ['an amount of 400 digits', page(`[{"id":"x","amount":${'9'.repeat(400)}}]`)],
    [
      'an unknown field that overflows to Infinity (the fallback writes it as null)',
      page('[{"id":"x","n":[1e999]}]'),
    ],
    ['a leading byte order mark', `\uFEFF${page('[]')}`],
    ['trailing garbage', `${page('[]')}x`],
    ['a second value after the page', `${page('[]')} {}`],
    ['a raw control character in a string', page('[{"id":"a\tb"}]')],
    ['a bad escape', page('[{"id":"x","note":"\\x41"}]')],
    ['a short \\u escape', page('[{"id":"x","note":"\\u12"}]')],
    ['a number with a leading zero', page('[{"id":01}]')],
    ['a number ending in a dot', page('[{"id":1.}]')],
    ['a lone minus', page('[{"id":"x","n":-}]')],
    ['an exponent without digits', page('[{"id":"x","n":1e}]')],
    ['a plus sign', page('[{"id":+1}]')],
    ['a trailing comma in a record', page('[{"id":"x",}]')],
    ['a trailing comma in data', page('[{"id":"x"},]')],
    ['a missing colon', page('[{"id" "x"}]')],
    ['an unterminated string', '{"data":[{"id":"x'],
    ['nesting deeper than 32 levels', page(`[{"id":"a","x":${'['.repeat(30)}${']'.repeat(30)}}]`)],
    ['an empty body', ''],
  ])('%s', (_, text) => {
    expect(scanText(text)).toBeNull();
  });
});

// Generators of near-valid inputs, to look for an accepted input the full path would not accept as scanned.

const loosePage = fc
  .record({
    data: fc.array(
      fc.tuple(
        fc.dictionary(fc.constantFrom(...KNOWN_PAYMENT_FIELDS), fc.jsonValue({ maxDepth: 2 })),
        validRecord,
      ),
      { maxLength: 5 },
    ),
    next_cursor: fc.oneof(fc.constantFrom(null, '', 'c'), fc.jsonValue({ maxDepth: 1 })),
    has_more: fc.oneof(fc.boolean(), fc.jsonValue({ maxDepth: 1 })),
  })
  // A wrongly typed field mostly replaces a good one, so most records keep an id.
  .map(({ data, ...rest }) => ({ data: data.map(([wrong, good]) => ({ ...good, ...wrong })), ...rest }));

const SNIPPETS = [
  ',"data":[]',
  ',"next_cursor":"x"',
  ',"has_more":true',
  ',"next\\u005fcursor":null',
  ',"extra":1',
  '"__proto__":1,',
  '"\\u005f_proto__":1,',
  '"id":"",',
  '"amount":"1",',
  '"amount":1e400,',
  '"x":01,',
  '"x":1.,',
  '"x":-,',
  '"x":1e,',
  '"x":"\u0001",',
  '"x":"\\q",',
  '"x":"\\u12",',
  '\uFEFF',
  ' ',
  '\t',
  '\r\n',
  '\\',
  '"',
  '{',
  '}',
  '[',
  ']',
  ',',
  ':',
  '0',
  '-',
  'e',
  '.',
  'null',
];
const mutation = fc.record({
  kind: fc.constantFrom('set', 'insert', 'delete', 'truncate'),
  at: fc.nat(),
  /** Where: anywhere, after a structural byte, or just inside the page's braces (top-level members). */
  place: fc.constantFrom('anywhere', 'structural', 'edge'),
  bytes: fc.oneof(
    fc.constantFrom(...SNIPPETS).map((snippet) => encoder.encode(snippet)),
    fc.integer({ min: 0, max: 255 }).map((byte) => Uint8Array.of(byte)),
  ),
});
type Mutation = typeof mutation extends fc.Arbitrary<infer M> ? M : never;

function mutate(bytes: Uint8Array, { kind, at, place, bytes: inserted }: Mutation): Uint8Array {
  let candidates = Array.from({ length: bytes.length + 1 }, (_, index) => index);
  if (place === 'structural')
    candidates = candidates.filter((index) => '{[,:'.includes(String.fromCharCode(bytes[index - 1] ?? 0)));
  if (place === 'edge') candidates = [bytes.indexOf(0x7b) + 1, bytes.lastIndexOf(0x7d)];
  const index = candidates[at % candidates.length] ?? 0;
  const head = bytes.subarray(0, index);
  switch (kind) {
    case 'set':
      return Uint8Array.of(...head, ...inserted.subarray(0, 1), ...bytes.subarray(index + 1));
    case 'insert':
      return Uint8Array.of(...head, ...inserted, ...bytes.subarray(index));
    case 'delete':
      return Uint8Array.of(...head, ...bytes.subarray(index + 1));
    default:
      return head;
  }
}

describe('scanPaymentPage is sound', () => {
  it('on valid and near-valid pages with 1–3 byte mutations or injected members: whenever it accepts, the full path accepts the same page', () => {
    let accepted = 0;
    fc.assert(
      fc.property(
        fc.oneof(validPage, loosePage),
        indent,
        fc.array(mutation, { minLength: 0, maxLength: 3 }),
        (value, space, mutations) => {
          const bytes = mutations.reduce(mutate, encoder.encode(JSON.stringify(value, null, space)));
          if (expectSoundIfAccepted(bytes)) accepted++;
        },
      ),
      { numRuns: 3000 },
    );
    // The property must not hold only because everything is refused.
    expect(accepted).toBeGreaterThan(300);
  });

  it('on arbitrary bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 100 }), (bytes) => {
        expectSoundIfAccepted(bytes);
      }),
      { numRuns: 2000 },
    );
  });

  it('on arbitrary JSON in page envelopes', () => {
    const record = fc.tuple(
      fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 3 })),
      fc.jsonValue({ maxDepth: 1 }),
    );
    let accepted = 0;
    fc.assert(
      fc.property(
        fc.oneof(
          fc
            .tuple(fc.json(), fc.json(), fc.json())
            .map(([data, cursor, hasMore]) => page(data, cursor, hasMore)),
          fc
            .tuple(fc.array(fc.json(), { maxLength: 5 }), fc.boolean())
            .map(([records, more]) => page(`[${records.join(',')}]`, more ? '"c"' : 'null', String(more))),
          fc
            .tuple(fc.array(record, { maxLength: 5 }), fc.boolean())
            .map(([records, more]) =>
              page(
                JSON.stringify(records.map(([fields, id]) => ({ ...fields, id }))),
                more ? '"c"' : 'null',
                String(more),
              ),
            ),
        ),
        (text) => {
          if (expectSoundIfAccepted(encoder.encode(text))) accepted++;
        },
      ),
      { numRuns: 2000 },
    );
    expect(accepted).toBeGreaterThan(100);
  });
});
