import type { MiddlewareHandler } from 'hono';
import { secureHeaders } from 'hono/secure-headers';
import type { BffEnv } from '../bff-env.ts';

/** No inline scripts or styles, no framing, no plugins: the SPA is built to need nothing more. */
const CSP_DIRECTIVES = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'"],
  imgSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  frameAncestors: ["'none'"],
  baseUri: ["'none'"],
  formAction: ["'self'"],
  objectSrc: ["'none'"],
};

export const CONTENT_SECURITY_POLICY = Object.entries(CSP_DIRECTIVES)
  .map(([name, values]) => `${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} ${values.join(' ')}`)
  .join('; ');

const HSTS = 'max-age=31536000; includeSubDomains';
const HASHED_ASSET = /^\/assets\//;
const DATA_PATH = /^\/(api\/|healthz$|readyz$)/;

/**
 * The security headers of every response (Hono's middleware), with HSTS only where the browser came over HTTPS
 * (`secure`, which requestOrigin sets before), and how long each may be cached: data never, hashed assets for
 * good, the rest revalidated.
 *
 * @example
 * ```ts
 * const app = new Hono<BffEnv>()
 *   .use(requestOrigin(settings))
 *   .use(...responseHeaders())
 *   .get('/api/config', (c) => c.json({}));
 * // Content-Security-Policy: default-src 'self'; …, X-Frame-Options: DENY, Cache-Control: no-store
 * ```
 */
export function responseHeaders(): MiddlewareHandler<BffEnv>[] {
  return [
    secureHeaders({
      contentSecurityPolicy: CSP_DIRECTIVES,
      xFrameOptions: 'DENY',
      strictTransportSecurity: false,
      permissionsPolicy: { camera: [], microphone: [], geolocation: [], payment: [] },
    }),
    async (c, next) => {
      await next();
      if (c.get('secure')) c.res.headers.set('strict-transport-security', HSTS);
      // Data is never stored; hashed assets are immutable; everything else is revalidated.
      c.res.headers.set(
        'cache-control',
        DATA_PATH.test(c.req.path)
          ? 'no-store'
          : HASHED_ASSET.test(c.req.path) && c.res.status === 200
            ? 'public, max-age=31536000, immutable'
            : 'no-cache',
      );
    },
  ];
}
