import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { validQuery } from './query-validator.ts';

const app = new Hono().get(
  '/payments',
  validQuery(
    z.strictObject({
      limit: z.string().regex(/^\d+$/, 'must be a whole number'),
      status: z.optional(z.string()),
    }),
  ),
  (c) => c.json(c.req.valid('query')),
);
const detailOf = async (path: string) => {
  const res = await app.request(path);
  return { status: res.status, ...((await res.json()) as { code?: string; detail?: string }) };
};

describe('validQuery', () => {
  it('hands the handler the parsed query', async () => {
    const res = await app.request('/payments?limit=5&status=FAILED');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ limit: '5', status: 'FAILED' });
  });

  it('refuses a bad value with 400 invalid_parameter naming the parameter and why', async () => {
    expect(await detailOf('/payments?limit=five')).toMatchObject({
      status: 400,
      code: 'invalid_parameter',
      detail: 'limit: must be a whole number',
    });
  });

  it('refuses a parameter given twice', async () => {
    expect(await detailOf('/payments?limit=5&limit=6')).toMatchObject({
      status: 400,
      detail: 'limit: must be given once',
    });
  });

  it('refuses an unknown parameter without echoing its name', async () => {
    const answer = await detailOf('/payments?limit=5&%3Cscript%3E=1');
    expect(answer).toMatchObject({ status: 400, code: 'invalid_parameter' });
    expect(answer.detail).not.toContain('script');
  });
});
