import { randomBytes } from 'node:crypto';

type Serve = (request: Request) => Response | Promise<Response>;

/**
 * Puts cursors that the test can expire in front of any test upstream: every `next_cursor` the upstream sends is
 * swapped for `bytes` random bytes (base64url: incompressible, as a real upstream's sealed cursors are), and
 * `expire()` makes every cursor issued so far answer 410, as an upstream whose cursors live a minute does for
 * a user who paused. Time is the test's: nothing expires by the clock.
 */
export function withExpiringCursors(serve: Serve, options: { bytes: number }) {
  const inner = new Map<string, string>();
  const expired = new Set<string>();
  let refusals = 0;
  let requests = 0;
  const fetch = async (request: Request): Promise<Response> => {
    requests += 1;
    const url = new URL(request.url);
    const cursor = url.searchParams.get('cursor');
    if (cursor !== null) {
      const known = inner.get(cursor);
      if (known === undefined || expired.has(cursor)) {
        refusals += 1;
        return Response.json({ error: 'cursor expired' }, { status: 410 });
      }
      url.searchParams.set('cursor', known);
    }
    const response = await serve(new Request(url, { headers: request.headers, signal: request.signal }));
    const text = await response.text();
    let next: unknown;
    try {
      next = (JSON.parse(text) as { next_cursor?: unknown }).next_cursor;
    } catch {
      next = undefined;
    }
    const headers = new Headers(response.headers);
    headers.delete('content-length');
    if (response.status !== 200 || typeof next !== 'string')
      return new Response(text, { status: response.status, headers });
    const outer = randomBytes(options.bytes).toString('base64url');
    inner.set(outer, next);
    // Swapped in the text: the body's ids may be numbers no JSON.parse keeps exact.
    const swapped = text.replace(`"next_cursor":${JSON.stringify(next)}`, `"next_cursor":"${outer}"`);
    return new Response(swapped, { status: 200, headers });
  };
  return {
    fetch,
    /** Every cursor issued so far is refused from now on. */
    expire() {
      for (const cursor of inner.keys()) expired.add(cursor);
    },
    /** Requests refused for an expired cursor. */
    refusals: () => refusals,
    /** Requests that reached the upstream, refused or not. */
    requests: () => requests,
  };
}
