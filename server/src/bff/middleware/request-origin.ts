import type { MiddlewareHandler } from 'hono';
import type { Settings } from '../../config/settings.ts';
import { forwardedOrigin, trustedProxies } from '../../runtime/addresses.ts';
import type { BffEnv } from '../bff-env.ts';

/**
 * Where the request comes from, decided once before the routes: the client's address (for throttling and the
 * sign-in log) and whether the browser reached us over HTTPS. Behind a TLS-terminating proxy only the forwarded
 * headers can tell, and they are read only from the proxies TRUST_PROXY names (otherwise any client could
 * claim an address or HTTPS). Sets `address` and `secure` for what runs after it.
 *
 * @example
 * ```ts
 * const app = new Hono<BffEnv>()
 *   .use(requestOrigin({ TRUST_PROXY: ['10.0.0.2/32'] }))
 *   .get('/', (c) => c.json({ address: c.get('address'), secure: c.get('secure') }));
 * // From the proxy 10.0.0.2 with X-Forwarded-For: 203.0.113.9 and X-Forwarded-Proto: https:
 * // { address: '203.0.113.9', secure: true }; from anyone else, its own address and false.
 * ```
 */
export function requestOrigin(settings: Pick<Settings, 'TRUST_PROXY'>): MiddlewareHandler<BffEnv> {
  const isProxy = trustedProxies(settings.TRUST_PROXY);
  return async (c, next) => {
    const origin = forwardedOrigin(c.env?.incoming?.socket?.remoteAddress, (n) => c.req.header(n), isProxy);
    c.set('address', origin.address);
    c.set('secure', c.req.url.startsWith('https:') || origin.https);
    await next();
  };
}
