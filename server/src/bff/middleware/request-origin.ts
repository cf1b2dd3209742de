import type { Context } from 'hono';
import type { BffEnv } from '../bff-env.ts';

/**
 * Whether the browser reached us over HTTPS. Behind a TLS-terminating proxy only `X-Forwarded-Proto` can tell,
 * and it is believed only when TRUST_PROXY says a proxy sets it (otherwise any client could claim it).
 */
export function isSecureRequest(
  url: string,
  header: (name: string) => string | undefined,
  trustProxy: boolean,
): boolean {
  if (url.startsWith('https:')) return true;
  return trustProxy && header('x-forwarded-proto')?.split(',')[0]?.trim() === 'https';
}

/** The client's address for throttling; with TRUST_PROXY the address the nearest proxy saw. */
export function clientAddress(c: Context<BffEnv>, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header('x-forwarded-for')?.split(',').at(-1)?.trim();
    if (forwarded) return forwarded;
  }
  return c.env?.incoming?.socket?.remoteAddress ?? 'unknown';
}
