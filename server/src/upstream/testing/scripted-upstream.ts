import type { HttpBindings } from '@hono/node-server';
import { Hono } from 'hono';

/** One scripted answer: it may read the request, or act on the raw socket (`node.incoming.socket.destroy()`). */
export type ScriptedResponse = (request: Request, node: HttpBindings) => Response | Promise<Response>;

/**
 * A scripted upstream for tests: each `GET /v1/payments/` gets the next scripted response, then the last one
 * repeats. `calls()` says how many requests arrived (retries included), `arrivals()` when each one did.
 */
export function scriptedUpstream(...responses: ScriptedResponse[]) {
  const arrivals: number[] = [];
  const app = new Hono<{ Bindings: HttpBindings }>();
  app.get('/v1/payments/', (c) => {
    const respond = responses[Math.min(arrivals.length, responses.length - 1)] as ScriptedResponse;
    arrivals.push(Date.now());
    return respond(c.req.raw, c.env);
  });
  return { app, calls: () => arrivals.length, arrivals: () => [...arrivals] };
}
