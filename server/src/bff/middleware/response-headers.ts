import type { Context, MiddlewareHandler } from 'hono';
import type { BffEnv } from './bff-env.ts';

/** No inline scripts or styles, no framing, no plugins: the SPA is built to need nothing more. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "object-src 'none'",
].join('; ');

const EVERY_RESPONSE: Readonly<Record<string, string>> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=()',
};
const HSTS = 'max-age=31536000; includeSubDomains';

const HASHED_ASSET = /^\/assets\//;
const DATA_PATH = /^\/(api\/|healthz$|readyz$)/;

/**
 * Our headers for one response: the security headers, HSTS over HTTPS, caching by kind (data never stored, hashed
 * assets for a year, the rest revalidated), and the request's id for support. The one place that decides them.
 */
function ownHeaders(c: Context<BffEnv>, status: number): Record<string, string> {
  const path = c.req.path;
  const headers: Record<string, string> = { ...EVERY_RESPONSE };
  if (c.get('secure')) headers['strict-transport-security'] = HSTS;
  headers['cache-control'] = DATA_PATH.test(path)
    ? 'no-store'
    : HASHED_ASSET.test(path) && status === 200
      ? 'public, max-age=31536000, immutable'
      : 'no-cache';
  const id = c.get('requestId');
  if (id !== undefined) headers['x-request-id'] = id;
  return headers;
}

/** Responses made by `completeResponse`, which already carry every header of ours. */
const complete = new WeakSet<Response>();

/**
 * A response with its body, content type and every header of ours set at once, as a plain object. The middleware
 * would otherwise turn the headers into a `Headers` object and set ten more, and the server turn them back into an
 * object to write them: for the list route, worth avoiding on every page.
 */
export function completeResponse(
  c: Context<BffEnv>,
  body: Uint8Array<ArrayBuffer>,
  status: number,
  contentType: string,
): Response {
  const headers = ownHeaders(c, status);
  headers['content-type'] = contentType;
  const response = new Response(body, { status, headers });
  complete.add(response);
  return response;
}

/**
 * Decides first whether the browser came over HTTPS (the `secure` variable, which the session cookie's name also
 * depends on), then sets our headers (see `ownHeaders`) on every response that does not carry them yet.
 */
export function securityHeaders(options: {
  isSecure: (url: string, header: (n: string) => string | undefined) => boolean;
}): MiddlewareHandler<BffEnv> {
  return async (c, next) => {
    c.set(
      'secure',
      options.isSecure(c.req.url, (n) => c.req.header(n)),
    );
    await next();
    if (complete.has(c.res)) return;
    const headers = c.res.headers;
    for (const [name, value] of Object.entries(ownHeaders(c, c.res.status))) headers.set(name, value);
  };
}
