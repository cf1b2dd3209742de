import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { CURSOR_PATTERN, companyIdSchema, dateTimeSchema } from '@payments/shared';
import { z } from 'zod';

/** What a cursor remembers: where the last page ended, and the session (company and filters) it belongs to. */
export interface CursorPayload {
  createdAt: string;
  id: string;
  companyId: string;
  status: string | null;
  dateFrom: string | null;
  /** When it was issued (milliseconds), for a sandbox whose cursors expire. */
  issuedAt?: number | undefined;
}

const payloadSchema = z
  .strictObject({
    c: dateTimeSchema,
    i: z.string().min(1).max(64),
    co: companyIdSchema,
    s: z
      .string()
      .regex(/^[A-Z_]{1,32}$/)
      .nullable(),
    d: z.nullable(dateTimeSchema),
    t: z.optional(z.number().int().nonnegative()),
  })
  .transform(
    (p): CursorPayload => ({
      createdAt: p.c,
      id: p.i,
      companyId: p.co,
      status: p.s,
      dateFrom: p.d,
      ...(p.t === undefined ? {} : { issuedAt: p.t }),
    }),
  );

const MAC_BYTES = 32;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

type CursorDecoding = { ok: true; payload: CursorPayload } | { ok: false };

export interface CursorCodec {
  encode(payload: CursorPayload): string;
  /** The payload of a cursor this codec issued; anything else (garbage, forged, truncated) is refused. */
  decode(token: string): CursorDecoding;
}

/**
 * Cursors are base64url(HMAC-SHA256(payload) ‖ payload JSON). The MAC makes them unforgeable; `limit` is left
 * out on purpose, since a client may change the page size between pages.
 */
export function createCursorCodec(secret: string = randomBytes(32).toString('base64url')): CursorCodec {
  const mac = (data: Buffer) => createHmac('sha256', secret).update(data).digest();
  return {
    encode(payload) {
      const json = Buffer.from(
        JSON.stringify({
          c: payload.createdAt,
          i: payload.id,
          co: payload.companyId,
          s: payload.status,
          d: payload.dateFrom,
          t: payload.issuedAt,
        }),
      );
      return Buffer.concat([mac(json), json]).toString('base64url');
    },
    decode(token) {
      if (!CURSOR_PATTERN.test(token) || !BASE64URL.test(token)) return { ok: false };
      const bytes = Buffer.from(token, 'base64url');
      // Buffer decoding is lenient; a token that does not re-encode to itself was not issued here.
      if (bytes.length <= MAC_BYTES || bytes.toString('base64url') !== token) return { ok: false };
      const json = bytes.subarray(MAC_BYTES);
      if (!timingSafeEqual(bytes.subarray(0, MAC_BYTES), mac(json))) return { ok: false };
      let parsed: unknown;
      try {
        parsed = JSON.parse(json.toString('utf8'));
      } catch {
        return { ok: false };
      }
      const result = payloadSchema.safeParse(parsed);
      return result.success ? { ok: true, payload: result.data } : { ok: false };
    },
  };
}
