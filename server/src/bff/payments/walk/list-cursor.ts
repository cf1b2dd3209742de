import { createCipheriv, createDecipheriv, createHmac, createSecretKey, randomBytes } from 'node:crypto';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { SharedState } from '../../../shared-state/index.ts';
import type { Position } from './company-reader.ts';
import type { MemberPlace } from './list-page.ts';
import type { RowKey } from './row-key.ts';

/** What a pagination session is bound to: the next page must be asked for with exactly these. */
export interface CursorBinding {
  user: string;
  company: string;
  status?: string | undefined;
  date_from?: string | undefined;
  date_to?: string | undefined;
  group?: string | undefined;
  currency?: string | undefined;
}

export type OpenedCursor =
  | { ok: true; places: MemberPlace[] }
  | { ok: false; reason: 'invalid' | 'mismatch' | 'expired' };

const VERSION = 'c3.';
const HANDLE = 'h3.';
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** Longer sealed positions are kept in the shared state behind a short handle: URLs stay well under 2 KB. */
const MAX_INLINE_LENGTH = 1_500;
/** The shared state's pool of handles. */
const HANDLES = 'cursor-handles';

/** How many handles a session keeps, how many bytes all of them, and how long one unused is kept. */
export interface HandleLimits {
  perSession: number;
  maxBytes: number;
  idleMs: number;
}

/** The binding as one string, its members in a fixed order. */
const bindingKey = (b: CursorBinding) =>
  JSON.stringify([
    b.user,
    b.company,
    b.status ?? null,
    b.date_from ?? null,
    b.date_to ?? null,
    b.group === 'true',
  ]);

type KeyTuple = [number | null, string] | null;
const keyTuple = (key: RowKey | undefined): KeyTuple => (key ? [key.at, key.id] : null);
const keyFrom = (tuple: unknown): RowKey | undefined =>
  Array.isArray(tuple) && (typeof tuple[0] === 'number' || tuple[0] === null) && typeof tuple[1] === 'string'
    ? { at: tuple[0], id: tuple[1] }
    : undefined;

/** A place as a compact tuple: company, filters, position (or null once ended), the next row's key. */
function placeTuple(place: MemberPlace): unknown[] {
  const p = place.position;
  return [
    place.company,
    place.filters.status ?? null,
    place.filters.date_from ?? null,
    p === null ? null : [p.cursor, p.skip, p.limit, keyTuple(p.head), keyTuple(p.prev)],
    keyTuple(place.head),
  ];
}

function placeFrom(tuple: unknown): MemberPlace | null {
  if (!Array.isArray(tuple) || typeof tuple[0] !== 'string') return null;
  const [company, status, dateFrom, position, head] = tuple as unknown[];
  const filters = {
    ...(typeof status === 'string' ? { status } : {}),
    ...(typeof dateFrom === 'string' ? { date_from: dateFrom } : {}),
  };
  if (position === null) return { company: company as string, filters, position: null, head: keyFrom(head) };
  if (!Array.isArray(position)) return null;
  const [cursor, skip, limit, positionHead, prev] = position as unknown[];
  if (!(cursor === null || typeof cursor === 'string') || !Number.isInteger(skip) || !Number.isInteger(limit))
    return null;
  const at: Position = {
    cursor: cursor as string | null,
    skip: skip as number,
    limit: limit as number,
    head: keyFrom(positionHead),
    prev: keyFrom(prev),
  };
  return { company: company as string, filters, position: at, head: keyFrom(head) };
}

/**
 * The BFF's own cursor: where each company of the view stands (upstream cursors included), sealed with
 * AES-256-GCM to its binding, so the browser can neither read the upstream cursors nor move them to other
 * filters, another company or another user. Any replica holding the same key (derived from APP_SECRET) opens it.
 * Positions too long for a URL (many companies, long upstream cursors of any alphabet) are kept in the shared
 * state, and the browser holds a sealed handle to them.
 */
export function createListCursors(key: Buffer, state: SharedState, limits: HandleLimits) {
  if (key.length !== 32) throw new Error('cursor key must be 32 bytes');
  const secret = createSecretKey(key);
  const pooled = { ttlMs: limits.idleMs, perOwner: limits.perSession, maxBytes: limits.maxBytes };
  // Handles are named with a key of their own, never the one that seals.
  const naming = createHmac('sha256', key).update('cursor handle names').digest();
  const seal = (plain: Buffer) => {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', secret, iv);
    const sealed = Buffer.concat([cipher.update(plain), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
  };
  const unseal = (text: string): unknown => {
    const raw = Buffer.from(text, 'base64url');
    if (raw.length <= IV_BYTES + TAG_BYTES) return undefined;
    try {
      const decipher = createDecipheriv('aes-256-gcm', secret, raw.subarray(0, IV_BYTES));
      decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      const plain = Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
      return JSON.parse(inflateRawSync(plain, { maxOutputLength: 4 * 1024 * 1024 }).toString('utf8'));
    } catch {
      return undefined;
    }
  };
  const pack = (value: unknown) => deflateRawSync(Buffer.from(JSON.stringify(value), 'utf8'));
  const unpack = (text: string): unknown => {
    try {
      const plain = inflateRawSync(Buffer.from(text, 'base64'), { maxOutputLength: 4 * 1024 * 1024 });
      return JSON.parse(plain.toString('utf8'));
    } catch {
      return undefined;
    }
  };

  return {
    /** How many handles are kept, and their bytes: what the caps bound. */
    handles: () => state.poolSize(HANDLES),
    /**
     * The token for the next page of a list standing at `places`, asked for in `session`. A handle is named by
     * what it holds (a keyed hash of session, binding and places): asking the same page again keeps nothing new.
     */
    async seal(places: readonly MemberPlace[], binding: CursorBinding, session: string): Promise<string> {
      const bound = bindingKey(binding);
      const packed = pack([bound, places.map(placeTuple)]);
      const inline = `${VERSION}${seal(packed)}`;
      if (inline.length <= MAX_INLINE_LENGTH) return inline;
      const id = createHmac('sha256', naming)
        .update(`${session}\n`)
        .update(packed)
        .digest()
        .subarray(0, 16)
        .toString('base64url');
      await state.keepPooled(HANDLES, session, id, packed.toString('base64'), pooled);
      return `${HANDLE}${seal(pack([bound, id]))}`;
    },
    async open(token: string, binding: CursorBinding): Promise<OpenedCursor> {
      const handle = token.startsWith(HANDLE);
      if (!handle && !token.startsWith(VERSION)) return { ok: false, reason: 'invalid' };
      const fields = unseal(token.slice(VERSION.length));
      if (!Array.isArray(fields) || typeof fields[0] !== 'string') return { ok: false, reason: 'invalid' };
      if (fields[0] !== bindingKey(binding)) return { ok: false, reason: 'mismatch' };
      let tuples: unknown = fields[1];
      if (handle) {
        const kept =
          typeof tuples === 'string' ? await state.readPooled(HANDLES, tuples, limits.idleMs) : null;
        if (kept === null) return { ok: false, reason: 'expired' };
        const held = unpack(kept);
        tuples = Array.isArray(held) ? held[1] : undefined;
      }
      if (!Array.isArray(tuples) || tuples.length === 0) return { ok: false, reason: 'invalid' };
      const places = tuples.map(placeFrom);
      return places.every((p) => p !== null)
        ? { ok: true, places: places as MemberPlace[] }
        : { ok: false, reason: 'invalid' };
    },
  };
}

export type ListCursors = ReturnType<typeof createListCursors>;
