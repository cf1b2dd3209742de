import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { gzipSync } from 'node:zlib';

/**
 * A second upstream for tests, written from `shared/spec/payments-api-v1.md` alone, never from the sandbox. Where
 * the spec says "not shown" it makes its own awkward choices (ids, amounts, dates, statuses, error bodies, cursor
 * alphabet, compression, idle sockets), so a client that passes against both relies only on what the spec says.
 */

export interface SpecUpstreamOptions {
  credentials: { secretId: string; secretPassword: string };
  /** Rows per company; default 250. */
  rowsPerCompany?: number;
  /** Order of the list: newest first (default) or a fixed shuffled order */
  order?: 'newest-first' | 'shuffled';
  /** Echo the request's Authorization credentials back in error bodies, in many spellings (see below). */
  echoCredentials?: boolean;
  /** Seconds a keep-alive connection may idle before the server closes it; default 1. */
  idleTimeoutSeconds?: number;
  seed?: number;
}

export interface SpecUpstream {
  /** `http://127.0.0.1:<port>/v1` */
  baseUrl: string;
  /** The caller's tree: the root (`parent_id: null`) and its descendants, including a grandchild. */
  companies: { id: string; name: string; parent_id: string | null }[];
  /** The records of one company's full list as the API would return them across all pages, in list order, after filters. */
  expected(companyId: string, filters?: { status?: string; date_from?: string }): Record<string, unknown>[];
  /** Every request received, for assertions (method, path, query, headers lower-cased). */
  requests: {
    method: string;
    path: string;
    query: Record<string, string>;
    headers: Record<string, string>;
  }[];
  close(): Promise<void>;
}

type Credentials = SpecUpstreamOptions['credentials'];
type Company = SpecUpstream['companies'][number];

interface Row {
  record: Record<string, unknown>;
  instant: number;
  idText: string;
  status: string;
}

interface CursorPayload {
  c: string;
  s: string | null;
  d: string | null;
  o: number;
}

const ROOT_ID = 'NL-000117';
const COMPANIES: readonly Company[] = [
  { id: ROOT_ID, name: 'Nordlicht Holding AG', parent_id: null },
  { id: 'NL-000342', name: 'Nordlicht Retail GmbH', parent_id: ROOT_ID },
  { id: 'NL-000519', name: 'Nordlicht Services B.V.', parent_id: ROOT_ID },
  { id: 'NL-000977', name: 'Nordlicht Retail Österreich GmbH', parent_id: 'NL-000342' },
];

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 100;
const DATE_FROM = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})$/;
const JSON_TYPE = 'application/json; charset=utf-8';
const TEXT_TYPE = 'text/plain; charset=utf-8';
const HTML_TYPE = 'text/html; charset=utf-8';
const FORBIDDEN_HTML = '<html><body><h1>403 Forbidden</h1></body></html>';
const ECHO_TRIGGERS: Record<string, number> = { ECHO_500: 500, ECHO_502: 502, ECHO_503: 503 };

/** The 11 spellings of a credential pair that echo mode puts in error bodies; tests scan logs for each. */
export function credentialSpellings({ secretId, secretPassword }: Credentials): string[] {
  const raw = `${secretId}:${secretPassword}`;
  const bytes = Buffer.from(raw, 'utf8');
  const base64 = bytes.toString('base64');
  const base64url = bytes.toString('base64url');
  const hex = bytes.toString('hex');
  return [
    raw,
    base64,
    base64.replace(/=+$/, ''),
    base64url.padEnd(Math.ceil(base64url.length / 4) * 4, '='),
    base64url,
    hex,
    hex.toUpperCase(),
    secretPassword,
    secretPassword.toUpperCase(),
    [...secretPassword].join(' '),
    encodeURIComponent(secretPassword),
  ];
}

export async function startSpecUpstream(options: SpecUpstreamOptions): Promise<SpecUpstream> {
  const seed = options.seed ?? 20261003;
  const rowsPerCompany = options.rowsPerCompany ?? 250;
  const lists = new Map<string, Row[]>();
  COMPANIES.forEach((company, index) => {
    const rows = generateRows(mulberry32(mix(seed, index + 1)), rowsPerCompany, company.id === ROOT_ID);
    rows.sort(newestFirst);
    lists.set(
      company.id,
      options.order === 'shuffled' ? shuffle(rows, mulberry32(mix(seed, 1000 + index))) : rows,
    );
  });
  const cursorKey = `spec-upstream-cursor:${seed}`;
  const requests: SpecUpstream['requests'] = [];

  const listFor = (companyId: string, status: string | undefined, dateFrom: number | undefined): Row[] =>
    (lists.get(companyId) ?? []).filter(
      (row) =>
        (status === undefined || row.status === status) &&
        (dateFrom === undefined || row.instant >= dateFrom),
    );

  const answer = (req: IncomingMessage, url: URL, query: Record<string, string>): Reply => {
    if (url.pathname !== '/v1/payments/' && url.pathname !== '/v1/payments') {
      return reply(404, TEXT_TYPE, 'Not Found');
    }
    if (req.method !== 'GET') return reply(405, TEXT_TYPE, 'Method Not Allowed', { allow: 'GET' });
    const presented = parseBasic(req.headers.authorization);
    const echo = (...lines: string[]): string[] => {
      if (!options.echoCredentials) return lines;
      if (presented) return [...lines, ...credentialSpellings(presented)];
      return req.headers.authorization ? [...lines, req.headers.authorization] : lines;
    };
    if (!presented || !sameCredentials(presented, options.credentials)) {
      return reply(401, TEXT_TYPE, echo('Unauthorized').join('\n'), {
        'www-authenticate': 'Basic realm="payments", charset="UTF-8"',
      });
    }
    const rawCompany = req.headers['x-company-id'];
    const companyHeader = Array.isArray(rawCompany) ? rawCompany.join(', ') : rawCompany;
    const companyId = companyHeader ?? ROOT_ID;
    // The caller's own ID is not a descendant of itself: the spec allows the header for descendants only.
    if (companyHeader !== undefined && !COMPANIES.some((c) => c.id === companyId && c.parent_id !== null)) {
      const debug = options.echoCredentials ? `<pre>\n${echo().join('\n')}\n</pre>` : '';
      return reply(403, HTML_TYPE, FORBIDDEN_HTML.replace('</body>', `${debug}</body>`));
    }
    const jsonError = (status: number, message: string): Reply => {
      const debug = options.echoCredentials ? { debug: { authorization: echo() } } : {};
      return reply(status, JSON_TYPE, JSON.stringify({ error: { message, ...debug } }));
    };

    const status = query.status || undefined;
    const trigger = status === undefined ? undefined : ECHO_TRIGGERS[status];
    if (trigger === 500) return jsonError(500, 'internal error');
    if (trigger === 502) {
      return reply(
        502,
        HTML_TYPE,
        `<html><body><h1>502 Bad Gateway</h1>${echo().join('<br>')}</body></html>`,
      );
    }
    if (trigger === 503) return reply(503, TEXT_TYPE, echo('Service Unavailable').join('\n'));

    let limit = DEFAULT_LIMIT;
    if (query.limit !== undefined) {
      if (!/^[0-9]+$/.test(query.limit) || Number(query.limit) < 1) {
        return jsonError(400, 'limit must be a positive integer');
      }
      limit = Math.min(Number(query.limit), MAX_LIMIT);
    }
    const dateFromText = query.date_from || undefined;
    const dateFrom = dateFromText === undefined ? undefined : parseDateFrom(dateFromText);
    if (Number.isNaN(dateFrom)) return jsonError(400, 'date_from must look like YYYY-MM-DDTHH:MM:SS');

    const list = listFor(companyId, status, dateFrom);
    let offset = 0;
    if (query.cursor) {
      const position = decodeCursor(cursorKey, query.cursor);
      const bound =
        position !== undefined &&
        position.c === companyId &&
        position.s === (status ?? null) &&
        position.d === (dateFromText ?? null) &&
        position.o > 0 &&
        position.o < list.length;
      if (!bound) return jsonError(422, 'invalid cursor');
      offset = position.o;
    }
    const data = list.slice(offset, offset + limit).map((row) => row.record);
    const end = offset + data.length;
    const hasMore = end < list.length;
    const nextCursor = hasMore
      ? encodeCursor(cursorKey, { c: companyId, s: status ?? null, d: dateFromText ?? null, o: end })
      : null;
    const envelope = {
      has_more: hasMore,
      next_cursor: nextCursor,
      meta: { api_version: 'v1', request_id: randomUUID() },
      data,
    };
    return reply(200, JSON_TYPE, JSON.stringify(envelope, null, 2));
  };

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const query = firstValues(url.searchParams);
    requests.push({ method: req.method ?? '', path: url.pathname, query, headers: flatHeaders(req) });
    respond(req, res, answer(req, url, query));
  };

  const server = createServer(handle);
  const idleMs = (options.idleTimeoutSeconds ?? 1) * 1000;
  server.keepAliveTimeout = idleMs;
  // Node 24 otherwise waits an extra second past keepAliveTimeout before closing an idle socket.
  server.keepAliveTimeoutBuffer = 0;
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  let closing: Promise<void> | undefined;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    companies: COMPANIES.map((company) => ({ ...company })),
    expected(companyId, filters = {}) {
      if (!lists.has(companyId)) throw new Error(`unknown company ${companyId}`);
      const dateFrom = filters.date_from ? parseDateFrom(filters.date_from) : undefined;
      if (Number.isNaN(dateFrom)) throw new Error(`bad date_from ${filters.date_from}`);
      return structuredClone(
        listFor(companyId, filters.status || undefined, dateFrom).map((row) => row.record),
      );
    },
    requests,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        for (const socket of sockets) socket.destroy();
      });
      return closing;
    },
  };
}

interface Reply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

function reply(status: number, type: string, body: string, headers: Record<string, string> = {}): Reply {
  return { status, headers: { 'content-type': type, ...headers }, body };
}

function respond(req: IncomingMessage, res: ServerResponse, { status, headers, body }: Reply): void {
  let payload = Buffer.from(body, 'utf8');
  const all: Record<string, string | number> = { ...headers, vary: 'accept-encoding' };
  if (acceptsGzip(req.headers['accept-encoding'])) {
    payload = gzipSync(payload);
    all['content-encoding'] = 'gzip';
  }
  all['content-length'] = payload.length;
  // Like a server behind a load balancer, it does not announce its idle timeout (no `Keep-Alive: timeout=`
  // header), so a client cannot dodge a stale socket by reading the hint.
  res.removeHeader('connection');
  res.writeHead(status, all);
  res.end(payload);
}

function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  return header.split(',').some((part) => {
    const [coding = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    return coding === 'gzip' && !params.some((p) => /^q=0(\.0*)?$/.test(p));
  });
}

function firstValues(params: URLSearchParams): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [key, value] of params) if (!Object.hasOwn(query, key)) query[key] = value;
  return query;
}

function flatHeaders(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [key, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[key] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

function parseBasic(header: string | undefined): Credentials | undefined {
  const match = header ? /^basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header) : null;
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  return { secretId: decoded.slice(0, colon), secretPassword: decoded.slice(colon + 1) };
}

function sameCredentials(a: Credentials, b: Credentials): boolean {
  const left = Buffer.from(`${a.secretId}:${a.secretPassword}`);
  const right = Buffer.from(`${b.secretId}:${b.secretPassword}`);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** `YYYY-MM-DDTHH:MM:SS` read as UTC; NaN when malformed or not a real date-time. */
function parseDateFrom(text: string): number {
  const m = DATE_FROM.exec(text);
  if (!m) return Number.NaN;
  const [year, month, day, hour, minute, second] = m.slice(1).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const ms = Date.UTC(year, month - 1, day, hour, minute, second);
  return new Date(ms).toISOString().slice(0, 19) === text ? ms : Number.NaN;
}

// Three leading bytes that encode to "++//" and a length that ends in "==": every cursor carries the whole
// awkward alphabet (`+ / = ~ . :`), so a client that does not percent-encode it breaks on the first page.
const CURSOR_MAGIC = Buffer.from([0xfb, 0xef, 0xff]);
const CURSOR_SHAPE = /^pc\.1:([A-Za-z0-9+/]+={0,2})~([A-Za-z0-9_-]{16})$/;

function encodeCursor(key: string, payload: CursorPayload): string {
  let json = JSON.stringify(payload);
  while ((CURSOR_MAGIC.length + Buffer.byteLength(json)) % 3 !== 1) json += ' ';
  const body = Buffer.concat([CURSOR_MAGIC, Buffer.from(json)]).toString('base64');
  return `pc.1:${body}~${cursorMac(key, body)}`;
}

function decodeCursor(key: string, cursor: string): CursorPayload | undefined {
  const match = CURSOR_SHAPE.exec(cursor);
  if (!match?.[1] || !match[2]) return undefined;
  const expectedMac = Buffer.from(cursorMac(key, match[1]));
  const givenMac = Buffer.from(match[2]);
  if (expectedMac.length !== givenMac.length || !timingSafeEqual(expectedMac, givenMac)) return undefined;
  const bytes = Buffer.from(match[1], 'base64');
  if (!bytes.subarray(0, CURSOR_MAGIC.length).equals(CURSOR_MAGIC)) return undefined;
  try {
    const value: unknown = JSON.parse(bytes.subarray(CURSOR_MAGIC.length).toString('utf8'));
    if (typeof value !== 'object' || value === null) return undefined;
    const { c, s, d, o } = value as Record<string, unknown>;
    const nullableString = (v: unknown) => v === null || typeof v === 'string';
    if (typeof c !== 'string' || !nullableString(s) || !nullableString(d) || !Number.isSafeInteger(o)) {
      return undefined;
    }
    return { c, s: s as string | null, d: d as string | null, o: o as number };
  } catch {
    return undefined;
  }
}

function cursorMac(key: string, body: string): string {
  return createHmac('sha256', key).update(body).digest('base64url').slice(0, 16);
}

// ---- data -------------------------------------------------------------------------------------------------

type Random = () => number;

/** mulberry32: a tiny seeded PRNG, enough for reproducible test data. */
function mulberry32(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function mix(seed: number, salt: number): number {
  return (Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) + Math.imul(salt, 0xc2b2ae35)) >>> 0;
}

function int(random: Random, min: number, max: number): number {
  return min + Math.floor(random() * (max - min + 1));
}

function pick<T>(random: Random, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)] as T;
}

function weighted<T>(random: Random, choices: readonly (readonly [T, number])[]): T {
  let r = random() * choices.reduce((sum, [, weight]) => sum + weight, 0);
  for (const [value, weight] of choices) {
    r -= weight;
    if (r < 0) return value;
  }
  return (choices[choices.length - 1] as readonly [T, number])[0];
}

const STATUSES = [
  ['COMPLETED', 35],
  ['AWAITING', 25],
  ['FAILED', 12],
  ['REFUNDED', 10],
  ['PARTIALLY_REFUNDED_PENDING_REVIEW', 10],
  ['chargeback_open', 8],
] as const;
const CURRENCIES = [
  ['EUR', 45],
  ['USD', 25],
  ['JPY', 15],
  ['BHD', 15],
] as const;
const MINOR_DIGITS: Record<string, number> = { EUR: 2, USD: 2, JPY: 0, BHD: 3 };
const OFFSETS_MINUTES = [120, 60, -300, 330, -210, 545];
const DESCRIPTIONS = [
  'Invoice 2026-0042',
  'Refund for order #8812, "express"',
  'Zahlung für Müller & Söhne',
  'Monthly subscription — Premium',
  'Line one\nline two',
  '  padded  ',
  '',
  'Café ☕ order',
  '<b>not html</b>',
  '日本語の説明',
  'Semicolon; comma, tab\tend',
];
const COUNTERPARTIES = [
  'Acme Corp',
  'Zoë Ltd.',
  'Müller & Söhne KG',
  'O\'Brien "Bros"',
  '株式会社テスト',
  'Al Noor W.L.L.',
];
const TAGS = ['urgent', 'b2b', 'recurring', 'manual-review', 'ünicode', 'x'];
const FIRST_INSTANT = Date.UTC(2026, 0, 1);
const LAST_INSTANT = Date.UTC(2026, 10, 30, 23, 59, 59, 999);

function generateRows(random: Random, count: number, integerIds: boolean): Row[] {
  const rows: Row[] = [];
  // Crosses from four to five digits, so numeric and textual order of ids differ.
  let nextId = int(random, 9_600, 9_800);
  for (let i = 0; i < count; i += 1) {
    let id: string | number;
    if (integerIds) {
      nextId += int(random, 1, 30);
      id = nextId;
    } else {
      id = uuid(random);
    }
    const [instant, createdAt] = createdAtFor(random, rows);
    const currency = weighted(random, CURRENCIES);
    const digits = MINOR_DIGITS[currency] ?? 2;
    const minor = minorAmount(random, digits);
    const status = weighted(random, STATUSES);

    const record: Record<string, unknown> = { id, created_at: createdAt };
    const amountShape = random();
    if (amountShape < 0.7) record.amount = decimal(minor, digits, random() < 0.2);
    else if (amountShape < 0.85) record.amount = minor;
    else if (amountShape >= 0.95) record.amount = null;
    record.currency = currency;
    record.status = status;
    const descriptionShape = random();
    if (descriptionShape < 0.6) record.description = pick(random, DESCRIPTIONS);
    else if (descriptionShape < 0.8) record.description = null;
    record.counterparty =
      random() < 0.65
        ? pick(random, COUNTERPARTIES)
        : { name: pick(random, COUNTERPARTIES), iban: `DE${int(random, 10, 99)}${digitString(random, 18)}` };
    record.reference = random() < 0.6 ? `INV-2026-${digitString(random, 5)}` : int(random, 1, 999_999_999);
    if (random() < 0.6) record.fee = decimal(Math.round(Math.abs(minor) * 0.015), digits, false);
    if (random() < 0.8) record.settled = random() < 0.5;
    if (random() < 0.5) {
      record.metadata = {
        channel: pick(random, ['api', 'batch', 'pos']),
        attempts: Array.from({ length: int(random, 1, 3) }, (_, n) => n + 1),
        lines: Array.from({ length: int(random, 0, 2) }, () => ({
          sku: `SKU-${digitString(random, 4)}`,
          qty: int(random, 1, 9),
        })),
      };
    }
    if (random() < 0.5) record.tags = Array.from({ length: int(random, 0, 3) }, () => pick(random, TAGS));
    rows.push({ record, instant, idText: String(id), status });
  }
  return rows;
}

/** An instant and its text: mostly `…sss Z`, some with an offset, a few zone-less (read as UTC); ~6% tie an earlier row. */
function createdAtFor(random: Random, earlier: readonly Row[]): [number, string] {
  const tieWith = earlier.length > 0 && random() < 0.06 ? pick(random, earlier) : undefined;
  let instant = tieWith?.instant ?? int(random, FIRST_INSTANT, LAST_INSTANT);
  const shape = random();
  // Offset and zone-less texts carry whole seconds only: a tie with a millisecond instant stays in `Z`.
  if (shape < 0.8 || (tieWith !== undefined && instant % 1000 !== 0)) {
    return [instant, new Date(instant).toISOString()];
  }
  instant -= instant % 1000;
  if (shape < 0.94) {
    const offset = pick(random, OFFSETS_MINUTES);
    const local = new Date(instant + offset * 60_000).toISOString().slice(0, 19);
    const abs = Math.abs(offset);
    const zone = `${offset < 0 ? '-' : '+'}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
    return [instant, `${local}${zone}`];
  }
  return [instant, new Date(instant).toISOString().slice(0, 19)];
}

function minorAmount(random: Random, digits: number): number {
  const unit = 10 ** digits;
  const shape = random();
  if (shape < 0.02) return 0;
  const magnitude = shape < 0.12 ? int(random, 1, Math.max(1, unit - 1)) : int(random, unit, 25_000 * unit);
  return random() < 0.15 ? -magnitude : magnitude;
}

/** Minor units as a decimal string with the currency's digits; `trim` drops trailing zeros ("0.5", "12"). */
function decimal(minor: number, digits: number, trim: boolean): string {
  const sign = minor < 0 ? '-' : '';
  const text = String(Math.abs(minor)).padStart(digits + 1, '0');
  if (digits === 0) return `${sign}${text}`;
  const whole = text.slice(0, -digits);
  let fraction = text.slice(-digits);
  if (trim) fraction = fraction.replace(/0+$/, '');
  return fraction ? `${sign}${whole}.${fraction}` : `${sign}${whole}`;
}

function digitString(random: Random, length: number): string {
  return Array.from({ length }, () => int(random, 0, 9)).join('');
}

function uuid(random: Random): string {
  const hex = Array.from({ length: 32 }, () => int(random, 0, 15).toString(16));
  hex[12] = '4';
  hex[16] = ((int(random, 0, 15) & 0x3) | 0x8).toString(16);
  const s = hex.join('');
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/** Newest instant first; equal instants by id text, descending (so "9999" comes before "10012"). */
function newestFirst(a: Row, b: Row): number {
  if (a.instant !== b.instant) return b.instant - a.instant;
  return a.idText < b.idText ? 1 : a.idText > b.idText ? -1 : 0;
}

function shuffle<T>(items: T[], random: Random): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}
