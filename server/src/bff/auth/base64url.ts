const BASE64URL = /^[A-Za-z0-9_-]*$/;

/**
 * Strict base64url decoding: Buffer.from() silently skips foreign characters, so it alone would accept many
 * spellings of one value. Only the canonical, unpadded spelling decodes; anything else is null.
 */
export function decodeBase64url(text: string): Buffer | null {
  if (!BASE64URL.test(text)) return null;
  const bytes = Buffer.from(text, 'base64url');
  return bytes.toString('base64url') === text ? bytes : null;
}
