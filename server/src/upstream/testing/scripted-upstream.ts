import { Hono } from 'hono';

/**
 * A scripted upstream for tests: each `GET /v1/payments/` gets the next scripted response, then the last one
 * repeats. `calls()` says how many requests arrived (retries included).
 */
export function scriptedUpstream(...responses: Array<() => Response | Promise<Response>>) {
  let calls = 0;
  const app = new Hono();
  app.get('/v1/payments/', () => {
    const respond = responses[Math.min(calls, responses.length - 1)] as () => Response;
    calls += 1;
    return respond();
  });
  return { app, calls: () => calls };
}
