import type { KNOWN_PAYMENT_FIELDS } from '@payments/shared/rules';

/** Where a proved page's parts are; see scanPaymentPage. */
export interface ScannedPage {
  /** Byte offsets of the `data` array value: bytes.subarray(dataStart, dataEnd) is exactly `[...]`. */
  dataStart: number;
  dataEnd: number;
  /** Number of records in data. */
  count: number;
  next_cursor: string | null;
  has_more: boolean;
}

const QUOTE = 0x22;
const PLUS = 0x2b;
const COMMA = 0x2c;
const MINUS = 0x2d;
const DOT = 0x2e;
const ZERO = 0x30;
const COLON = 0x3a;
const OPEN_BRACKET = 0x5b;
const BACKSLASH = 0x5c;
const CLOSE_BRACKET = 0x5d;
const UPPER_E = 0x45;
const LOWER_E = 0x65;
const LOWER_F = 0x66;
const LOWER_N = 0x6e;
const LOWER_T = 0x74;
const LOWER_U = 0x75;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/** Nesting bound, counting the page object as 1. */
const MAX_DEPTH = 32;
/** A record's depth: inside the page object and its data array. */
const RECORD_DEPTH = 3;
/** Integer digits up to which a number without exponent is surely finite (Number.MAX_VALUE has 309). */
const SAFE_INTEGER_DIGITS = 308;

function byteTable(member: (byte: number) => boolean): Uint8Array {
  const table = new Uint8Array(256);
  for (let byte = 0; byte < 256; byte++) table[byte] = member(byte) ? 1 : 0;
  return table;
}
const oneOf = (chars: string) => (byte: number) => chars.includes(String.fromCharCode(byte));

/** Bytes a string holds as they are: anything but `"`, `\` and control characters. */
const PLAIN = byteTable((byte) => byte >= 0x20 && byte !== QUOTE && byte !== BACKSLASH);
/** The escapes `\x` of one character (`\u` is handled apart). */
const SHORT_ESCAPE = byteTable(oneOf('"\\/bfnrt'));
const HEX = byteTable(oneOf('0123456789abcdefABCDEF'));
const DIGIT = byteTable(oneOf('0123456789'));
const WHITESPACE = byteTable(oneOf(' \t\n\r'));

const ascii = (text: string) => Uint8Array.from(text, (char) => char.charCodeAt(0));
const TRUE = ascii('true');
const FALSE = ascii('false');
const NULL = ascii('null');

/** What a record's member may hold. */
const ANY = 0;
const ID = 1;
const STRING = 2;
const NULLABLE_STRING = 3;
const NUMBER = 4;
const FORBIDDEN = 5;

/**
 * A key to recognise: the bytes `"name"`, quotes included, as four-byte words at 0, 4, … and at length − 4 (that
 * last one may overlap), so a key is compared in a few reads. Every name has 2 characters or more: one word at least.
 */
interface Key {
  length: number;
  words: Int32Array;
  kind: number;
  /** Index in RECORD_KEYS, for record keys. */
  order: number;
}

function key(name: string, kind = ANY, order = -1): Key {
  const bytes = ascii(`"${name}"`);
  const view = new DataView(bytes.buffer);
  const offsets = [];
  for (let offset = 0; offset + 4 < bytes.length; offset += 4) offsets.push(offset);
  offsets.push(bytes.length - 4);
  return {
    length: bytes.length,
    words: Int32Array.from(offsets, (at) => view.getInt32(at, true)),
    kind,
    order,
  };
}

/** Whether the `key.length` bytes from `start` (the caller knows they are in bounds) are `key`. */
function isKey(w: DataView, start: number, key: Key): boolean {
  const words = key.words;
  const last = words.length - 1;
  for (let k = 0; k < last; k++) if (w.getInt32(start + 4 * k, true) !== words[k]) return false;
  return w.getInt32(start + key.length - 4, true) === words[last];
}

/** Whether the key between `start` and `end` (its quotes included) is `key`. */
const isKeyAt = (w: DataView, start: number, end: number, key: Key) =>
  end - start === key.length && isKey(w, start, key);

const DATA = key('data');
const NEXT_CURSOR = key('next_cursor');
const HAS_MORE = key('has_more');
/** JSON.parse keeps a `__proto__` key as an own member, which the schema's objects drop: never accepted. */
const PROTO = key('__proto__', FORBIDDEN);

/**
 * `paymentSchema`'s typed fields, in the order upstreams write them (KNOWN_PAYMENT_FIELDS's); `satisfies` keeps
 * the names equal to KNOWN_PAYMENT_FIELDS.
 */
const KNOWN_FIELD_KINDS = {
  id: ID,
  company_id: STRING,
  status: STRING,
  amount: NUMBER,
  currency: STRING,
  created_at: STRING,
  description: NULLABLE_STRING,
  counterparty: NULLABLE_STRING,
  reference: NULLABLE_STRING,
} satisfies Record<(typeof KNOWN_PAYMENT_FIELDS)[number], number>;
const RECORD_KEYS = Object.entries(KNOWN_FIELD_KINDS).map(([name, kind], order) => key(name, kind, order));
/** The keys a record's key is looked up in, by length: few share one. */
const RECORD_KEYS_BY_LENGTH = Map.groupBy([...RECORD_KEYS, PROTO], (known) => known.length);

/** Only for the cursor and rare numbers; keeps a leading U+FEFF, as JSON.parse does inside a string. */
const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });

/*
 * The skip functions below take `b` and the index where their token starts, and return the index just after it,
 * or -1 when it is not valid or not sure. `w` views the same bytes as `b`, for four-byte reads.
 * Reads past the end give 0 (`?? 0`), a byte no rule accepts, so they need no bounds checks of their own.
 */

function skipWhitespace(b: Uint8Array, i: number): number {
  while (WHITESPACE[b[i] ?? 0] === 1) i++;
  return i;
}

function skipLiteral(b: Uint8Array, i: number, literal: Uint8Array): number {
  for (let k = 0; k < literal.length; k++) if (b[i + k] !== literal[k]) return -1;
  return i + literal.length;
}

/** The `:` after a key, with whitespace around it. */
function skipColon(b: Uint8Array, i: number): number {
  i = skipWhitespace(b, i);
  return b[i] === COLON ? skipWhitespace(b, i + 1) : -1;
}

/** A string (at `b[i] === '"'`); with `escapes` false, a backslash gives -1 (for keys and the cursor). */
function skipString(b: Uint8Array, w: DataView, i: number, escapes: boolean): number {
  i++;
  const wordsEnd = b.length - 4;
  for (;;) {
    // String bodies are most of a page: four bytes at a time, and the last few one by one.
    if (i <= wordsEnd) {
      const special = specialBytes(w.getInt32(i, true));
      if (special === 0) {
        i += 4;
        continue;
      }
      // The lowest flagged byte, the first as read little-endian.
      i += (31 - Math.clz32(special & -special)) >> 3;
    } else while (PLAIN[b[i] ?? 0] === 1) i++;
    const c = b[i];
    if (c === QUOTE) return i + 1;
    if (c !== BACKSLASH || !escapes) return -1;
    const escaped = b[i + 1] ?? 0;
    if (SHORT_ESCAPE[escaped] === 1) i += 2;
    else if (
      escaped === LOWER_U &&
      HEX[b[i + 2] ?? 0] === 1 &&
      HEX[b[i + 3] ?? 0] === 1 &&
      HEX[b[i + 4] ?? 0] === 1 &&
      HEX[b[i + 5] ?? 0] === 1
    )
      i += 6;
    else return -1;
  }
}

/**
 * The top bit of each byte of `x` that is `"`, `\` or below 0x20, and maybe of bytes after one that is (SWAR).
 * For a byte `v`, `(v - n) & ~v` has its top bit set exactly when `v < n` (n ≤ 0x80); a borrow only carries
 * into the next byte from one that matched, so the lowest flag is always a true match, and 0 means none.
 */
function specialBytes(x: number): number {
  const quote = x ^ 0x22222222;
  const backslash = x ^ 0x5c5c5c5c;
  const below =
    ((x - 0x20202020) & ~x) | ((quote - 0x01010101) & ~quote) | ((backslash - 0x01010101) & ~backslash);
  return below & 0x80808080;
}

function skipDigits(b: Uint8Array, i: number): number {
  while (DIGIT[b[i] ?? 0] === 1) i++;
  return i;
}

/**
 * A number that JSON.parse turns into a finite one: z.number() refuses ±Infinity, and the fallback path would
 * write it out again as null. Only numbers with an exponent or very many integer digits can overflow, and those
 * few are checked by parsing them.
 */
function skipNumber(b: Uint8Array, i: number): number {
  const start = i;
  if (b[i] === MINUS) i++;
  const integerStart = i;
  if (b[i] === ZERO) i++;
  else if (DIGIT[b[i] ?? 0] === 1) i = skipDigits(b, i + 1);
  else return -1;
  let risky = i - integerStart > SAFE_INTEGER_DIGITS;
  if (b[i] === DOT) {
    if (DIGIT[b[i + 1] ?? 0] !== 1) return -1;
    i = skipDigits(b, i + 2);
  }
  if (b[i] === LOWER_E || b[i] === UPPER_E) {
    i++;
    if (b[i] === PLUS || b[i] === MINUS) i++;
    if (DIGIT[b[i] ?? 0] !== 1) return -1;
    i = skipDigits(b, i + 1);
    risky = true;
  }
  // Number() and JSON.parse round the same decimal text to the same double.
  if (risky && !Number.isFinite(Number(utf8.decode(b.subarray(start, i))))) return -1;
  return i;
}

/** Any JSON value, its containers nested at most MAX_DEPTH deep; `depth` is that of the value's container. */
function skipValue(b: Uint8Array, w: DataView, i: number, depth: number): number {
  switch (b[i]) {
    case QUOTE:
      return skipString(b, w, i, true);
    case OPEN_BRACE:
      return skipObject(b, w, i, depth + 1);
    case OPEN_BRACKET:
      return skipArray(b, w, i, depth + 1);
    case LOWER_T:
      return skipLiteral(b, i, TRUE);
    case LOWER_F:
      return skipLiteral(b, i, FALSE);
    case LOWER_N:
      return skipLiteral(b, i, NULL);
    default:
      return skipNumber(b, i);
  }
}

/** An array (at `b[i] === '['`) at `depth`. */
function skipArray(b: Uint8Array, w: DataView, i: number, depth: number): number {
  if (depth > MAX_DEPTH) return -1;
  i = skipWhitespace(b, i + 1);
  if (b[i] === CLOSE_BRACKET) return i + 1;
  for (;;) {
    i = skipValue(b, w, i, depth);
    if (i < 0) return -1;
    i = skipWhitespace(b, i);
    if (b[i] === CLOSE_BRACKET) return i + 1;
    if (b[i] !== COMMA) return -1;
    i = skipWhitespace(b, i + 1);
  }
}

/** An object (at `b[i] === '{'`) at `depth`, its keys without escapes and not `__proto__`. */
function skipObject(b: Uint8Array, w: DataView, i: number, depth: number): number {
  if (depth > MAX_DEPTH) return -1;
  i = skipWhitespace(b, i + 1);
  if (b[i] === CLOSE_BRACE) return i + 1;
  for (;;) {
    if (b[i] !== QUOTE) return -1;
    const keyStart = i;
    i = skipString(b, w, i, false);
    if (i < 0 || isKeyAt(w, keyStart, i, PROTO)) return -1;
    i = skipColon(b, i);
    if (i < 0) return -1;
    i = skipValue(b, w, i, depth);
    if (i < 0) return -1;
    i = skipWhitespace(b, i);
    if (b[i] === CLOSE_BRACE) return i + 1;
    if (b[i] !== COMMA) return -1;
    i = skipWhitespace(b, i + 1);
  }
}

/**
 * A record: an object with an `id`, its known fields typed as `paymentSchema` types them, and no key with an
 * escape or named `__proto__`. Each key is first compared with the known field after the last one seen: when
 * the fields come in the usual order, that one comparison is all the key costs. Around the punctuation, the
 * compact spelling is tested for first, and skipWhitespace only called when it is not there: a call per member
 * cost ~15% of the scan.
 */
function skipRecord(b: Uint8Array, w: DataView, i: number): number {
  if (b[i] !== OPEN_BRACE) return -1;
  let hasId = false;
  let next = 0;
  i++;
  if (b[i] !== QUOTE) i = skipWhitespace(b, i);
  for (;;) {
    let known = RECORD_KEYS[next];
    if (known !== undefined && i + known.length <= b.length && isKey(w, i, known)) i += known.length;
    else {
      if (b[i] !== QUOTE) return -1;
      const keyStart = i;
      i = skipString(b, w, i, false);
      if (i < 0) return -1;
      known = recordKey(w, keyStart, i);
    }
    const kind = known?.kind ?? ANY;
    if (known !== undefined) next = known.order + 1;
    if (kind === ID) hasId = true;
    // Compact JSON first (no whitespace around the colon), and the other spellings after it.
    if (b[i] === COLON && WHITESPACE[b[i + 1] ?? 0] !== 1) i = skipField(b, w, i + 1, kind);
    else {
      i = skipColon(b, i);
      if (i < 0) return -1;
      i = skipField(b, w, i, kind);
    }
    if (i < 0) return -1;
    let c = b[i];
    if (c !== COMMA && c !== CLOSE_BRACE) {
      i = skipWhitespace(b, i);
      c = b[i];
    }
    if (c === COMMA) {
      i++;
      if (b[i] !== QUOTE) i = skipWhitespace(b, i);
      continue;
    }
    return c === CLOSE_BRACE && hasId ? i + 1 : -1;
  }
}

/** The known key between `start` and `end` (its quotes included), if it is one. */
function recordKey(w: DataView, start: number, end: number): Key | undefined {
  const candidates = RECORD_KEYS_BY_LENGTH.get(end - start);
  if (candidates !== undefined) for (const known of candidates) if (isKey(w, start, known)) return known;
  return undefined;
}

/** A record member's value, of the given kind. */
function skipField(b: Uint8Array, w: DataView, i: number, kind: number): number {
  switch (kind) {
    case ID:
      if (b[i] !== QUOTE) return skipNumber(b, i);
      return b[i + 1] === QUOTE ? -1 : skipString(b, w, i, true);
    case STRING:
      return b[i] === QUOTE ? skipString(b, w, i, true) : -1;
    case NULLABLE_STRING:
      return b[i] === QUOTE ? skipString(b, w, i, true) : skipLiteral(b, i, NULL);
    case NUMBER:
      return skipNumber(b, i);
    case FORBIDDEN:
      return -1;
    default:
      return skipValue(b, w, i, RECORD_DEPTH);
  }
}

/**
 * One pass over a payment page's bytes that either proves them a valid page or gives up, allocating only a view
 * of the bytes, the answer and its cursor.
 *
 * A non-null answer means: the bytes are RFC 8259 JSON, `paymentPageSchema` accepts what they parse to, the
 * top-level object has exactly the members data, next_cursor and has_more, each once, and no object in data has
 * a `__proto__` key. `null` means "not sure", never "invalid": the caller then decodes, parses and validates as
 * usual, which stays the authority. Rare spellings are therefore refused rather than handled: a backslash in any
 * object key or in the cursor, nesting deeper than MAX_DEPTH, a leading byte order mark, unknown members.
 *
 * Bytes ≥ 0x80 are not checked as UTF-8: a decoder never lets a bad sequence swallow an ASCII byte, so the
 * structure seen here is that of the decoded text, and a slice between two ASCII bytes (the data array, the
 * cursor) decodes to exactly the matching part of the whole text.
 */
export function scanPaymentPage(bytes: Uint8Array): ScannedPage | null {
  const b = bytes;
  const w = new DataView(b.buffer, b.byteOffset, b.byteLength);
  let dataStart = -1;
  let dataEnd = -1;
  let count = 0;
  let cursorStart = -1;
  let cursorEnd = -1;
  let hasMore: boolean | null = null;

  let i = skipWhitespace(b, 0);
  if (b[i] !== OPEN_BRACE) return null;
  i = skipWhitespace(b, i + 1);
  for (;;) {
    if (b[i] !== QUOTE) return null;
    const keyStart = i;
    i = skipString(b, w, i, false);
    if (i < 0) return null;
    const keyEnd = i;
    i = skipColon(b, i);
    if (i < 0) return null;
    // Each member once: a repeat is refused like an unknown member (JSON.parse would keep the last).
    if (dataStart < 0 && isKeyAt(w, keyStart, keyEnd, DATA)) {
      if (b[i] !== OPEN_BRACKET) return null;
      dataStart = i;
      i = skipWhitespace(b, i + 1);
      if (b[i] !== CLOSE_BRACKET)
        for (;;) {
          i = skipRecord(b, w, i);
          if (i < 0) return null;
          count++;
          let c = b[i];
          if (c !== COMMA && c !== CLOSE_BRACKET) {
            i = skipWhitespace(b, i);
            c = b[i];
          }
          if (c === CLOSE_BRACKET) break;
          if (c !== COMMA) return null;
          i++;
          if (b[i] !== OPEN_BRACE) i = skipWhitespace(b, i);
        }
      i++;
      dataEnd = i;
    } else if (cursorStart < 0 && isKeyAt(w, keyStart, keyEnd, NEXT_CURSOR)) {
      cursorStart = i;
      // A cursor is non-empty; one with escapes is rare enough to leave to the full path.
      i = b[i] === QUOTE && b[i + 1] !== QUOTE ? skipString(b, w, i, false) : skipLiteral(b, i, NULL);
      if (i < 0) return null;
      cursorEnd = i;
    } else if (hasMore === null && isKeyAt(w, keyStart, keyEnd, HAS_MORE)) {
      hasMore = b[i] === LOWER_T;
      i = skipLiteral(b, i, hasMore ? TRUE : FALSE);
      if (i < 0) return null;
    } else return null;
    i = skipWhitespace(b, i);
    if (b[i] === CLOSE_BRACE) break;
    if (b[i] !== COMMA) return null;
    i = skipWhitespace(b, i + 1);
  }
  if (skipWhitespace(b, i + 1) !== b.length || dataStart < 0 || cursorStart < 0 || hasMore === null)
    return null;

  const nextCursor =
    b[cursorStart] === QUOTE ? utf8.decode(b.subarray(cursorStart + 1, cursorEnd - 1)) : null;
  if (hasMore !== (nextCursor !== null)) return null;
  return { dataStart, dataEnd, count, next_cursor: nextCursor, has_more: hasMore };
}
