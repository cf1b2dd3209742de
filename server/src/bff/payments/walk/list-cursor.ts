import { createCipheriv, createDecipheriv, createSecretKey, randomBytes } from 'node:crypto';
import { CURSOR_PATTERN } from '@payments/shared';

/** What a pagination session is bound to: the next page must be asked for with exactly these. */
export interface CursorBinding {
  user: string;
  company: string;
  status?: string | undefined;
  date_from?: string | undefined;
  date_to?: string | undefined;
  group?: string | undefined;
}

export type OpenedCursor =
  | { ok: true; upstreamCursor: string }
  | { ok: false; reason: 'invalid' | 'mismatch' };

export interface ListCursors {
  /** Seals an upstream cursor to its binding; null when the token would not fit the shared cursor shape. */
  seal(upstreamCursor: string, binding: CursorBinding): string | null;
  open(token: string, binding: CursorBinding): OpenedCursor;
}

const VERSION = 'c2.';
const IV_BYTES = 12;
const TAG_BYTES = 16;

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

/**
 * The BFF's own cursor: the upstream's cursor and its binding sealed with AES-256-GCM, so the browser can neither
 * read the upstream cursor nor move it to other filters, another company or another user. Any replica holding the
 * same key (derived from `APP_SECRET`) opens it.
 */
export function createListCursors(key: Buffer): ListCursors {
  if (key.length !== 32) throw new Error('cursor key must be 32 bytes');
  const secret = createSecretKey(key);
  return {
    seal(upstreamCursor, binding) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', secret, iv);
      const plain = JSON.stringify([bindingKey(binding), upstreamCursor]);
      const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      const token = `${VERSION}${Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url')}`;
      return CURSOR_PATTERN.test(token) ? token : null;
    },
    open(token, binding) {
      if (!token.startsWith(VERSION)) return { ok: false, reason: 'invalid' };
      const raw = Buffer.from(token.slice(VERSION.length), 'base64url');
      if (raw.length <= IV_BYTES + TAG_BYTES) return { ok: false, reason: 'invalid' };
      let fields: unknown;
      try {
        const decipher = createDecipheriv('aes-256-gcm', secret, raw.subarray(0, IV_BYTES));
        decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
        const plain = Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
        fields = JSON.parse(plain.toString('utf8'));
      } catch {
        return { ok: false, reason: 'invalid' };
      }
      if (!Array.isArray(fields) || typeof fields[0] !== 'string' || typeof fields[1] !== 'string')
        return { ok: false, reason: 'invalid' };
      return fields[0] === bindingKey(binding)
        ? { ok: true, upstreamCursor: fields[1] }
        : { ok: false, reason: 'mismatch' };
    },
  };
}
