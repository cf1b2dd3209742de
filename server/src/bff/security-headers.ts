import type { MiddlewareHandler } from 'hono';

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

const HASHED_ASSET = /^\/assets\//;
const DATA_PATH = /^\/(api\/|healthz$|readyz$)/;

/** Security headers on every response, and caching rules by kind: data never stored, hashed assets for a year. */
export function securityHeaders(options: {
  isSecure: (url: string, header: (n: string) => string | undefined) => boolean;
}): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const h = c.res.headers;
    h.set('Content-Security-Policy', CONTENT_SECURITY_POLICY);
    h.set('X-Content-Type-Options', 'nosniff');
    h.set('Referrer-Policy', 'no-referrer');
    h.set('X-Frame-Options', 'DENY');
    h.set('Cross-Origin-Opener-Policy', 'same-origin');
    h.set('Cross-Origin-Resource-Policy', 'same-origin');
    h.set('Permissions-Policy', 'camera=(), microphone=(), geolocation=(), payment=()');
    if (options.isSecure(c.req.url, (n) => c.req.header(n)))
      h.set('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
    const path = c.req.path;
    if (DATA_PATH.test(path)) h.set('Cache-Control', 'no-store');
    else if (HASHED_ASSET.test(path) && c.res.status === 200)
      h.set('Cache-Control', 'public, max-age=31536000, immutable');
    else h.set('Cache-Control', 'no-cache');
  };
}
