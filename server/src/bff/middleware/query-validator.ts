import { sValidator } from '@hono/standard-validator';
import type { StandardSchemaV1 } from '@standard-schema/spec';
import { problemResponse } from '../problem-response.ts';

/**
 * The query checked by a shared schema before the handler runs, or a 400 `invalid_parameter` saying why. A
 * parameter given twice is refused (Hono hands it over as a list). Names are echoed only when they are ours: an
 * unknown name is the browser's text. The handler reads the parsed query with `c.req.valid('query')`.
 *
 * @example
 * ```ts
 * const app = new Hono().get('/payments', validQuery(z.strictObject({ limit: z.string() })), (c) =>
 *   c.json(c.req.valid('query')),
 * );
 * await app.request('/payments?limit=5&limit=6'); // 400 invalid_parameter, "limit: must be given once"
 * ```
 */
export function validQuery<S extends StandardSchemaV1>(schema: S) {
  return sValidator('query', schema, (result, c) => {
    if (result.success) return;
    const issue = result.error[0];
    const name = typeof issue?.path?.[0] === 'object' ? issue.path[0].key : issue?.path?.[0];
    if (name === undefined)
      return problemResponse(c, 'invalid_parameter', 400, 'unknown query parameter, or one given twice');
    const repeated = Array.isArray((result.data as Record<string, unknown>)[String(name)]);
    return problemResponse(
      c,
      'invalid_parameter',
      400,
      `${String(name)}: ${repeated ? 'must be given once' : (issue?.message ?? 'is invalid')}`,
    );
  });
}
