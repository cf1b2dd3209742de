import { Hono } from 'hono';
import { describe, expect, it, vi } from 'vitest';
import type { BffEnv } from '../bff-env.ts';
import { problemResponse } from '../problem-response.ts';
import { refusedSignIns, requestLog } from './request-log.ts';

/** A tiny app: POST /api/session refuses unless ?ok, anything else 200 or a 403 problem. */
function app(now: () => number) {
  const logs: string[] = [];
  const logger = (line: string) => logs.push(line);
  const signIns = refusedSignIns(logger, now);
  const isSignIn = (method: string, path: string) => method === 'POST' && path === '/api/session';
  const bff = new Hono<BffEnv>()
    .use(async (c, next) => {
      c.set('address', c.req.header('x-test-address') ?? 'unknown');
      await next();
    })
    .use(requestLog(logger, { signIns, isSignIn }))
    .post('/api/session', (c) =>
      c.req.query('ok') !== undefined
        ? c.json({ username: 'ana' })
        : c.req.query('busy') !== undefined
          ? problemResponse(c, 'busy', 429, 'busy')
          : problemResponse(c, 'invalid_credentials', 401, 'wrong'),
    )
    .get('/api/config', (c) =>
      c.req.query('deny') !== undefined ? problemResponse(c, 'forbidden_company', 403, 'no') : c.json({}),
    );
  const lines = () => logs.map((line) => JSON.parse(line) as Record<string, unknown>);
  return { bff, lines, signIns };
}

const post = (address: string) => ({ method: 'POST', headers: { 'x-test-address': address } });

describe('request log', () => {
  it('writes one line per address and minute for refused sign-ins, with a count by code', async () => {
    let time = Date.UTC(2026, 0, 1, 10, 42, 5);
    const { bff, lines } = app(() => time);
    for (let i = 0; i < 300; i++) await bff.request('/api/session', post('198.51.100.7'));
    for (let i = 0; i < 50; i++) await bff.request('/api/session?busy', post('198.51.100.7'));
    for (let i = 0; i < 20; i++) await bff.request('/api/session', post('203.0.113.9'));
    expect(lines()).toEqual([]);
    time += 60_000;
    await bff.request('/api/session', post('203.0.113.9'));
    expect(lines()).toEqual([
      expect.objectContaining({
        msg: 'sign_in_refused',
        level: 'warn',
        minute: '2026-01-01T10:42:00.000Z',
        address: '198.51.100.7',
        count: 350,
        codes: { invalid_credentials: 300, busy: 50 },
      }),
      expect.objectContaining({ address: '203.0.113.9', count: 20, codes: { invalid_credentials: 20 } }),
    ]);
  });

  it('writes what was counted when the process stops', async () => {
    const { bff, lines, signIns } = app(Date.now);
    await bff.request('/api/session', post('198.51.100.7'));
    signIns.flush();
    expect(lines()).toEqual([expect.objectContaining({ msg: 'sign_in_refused', count: 1 })]);
    signIns.flush();
    expect(lines()).toHaveLength(1);
  });

  it('writes the lines of a minute within seconds of its end, with no request after it', async () => {
    vi.useFakeTimers({ toFake: ['setInterval'] });
    try {
      let time = Date.UTC(2026, 0, 1, 10, 42, 55);
      const { bff, lines } = app(() => time);
      await bff.request('/api/session', post('198.51.100.7'));
      vi.advanceTimersByTime(5_000);
      expect(lines()).toEqual([]);
      time += 6_000;
      vi.advanceTimersByTime(5_000);
      expect(lines()).toEqual([expect.objectContaining({ msg: 'sign_in_refused', count: 1 })]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('still writes a line for each successful sign-in and each other request, refused or not, with its code', async () => {
    const { bff, lines } = app(Date.now);
    await bff.request('/api/session?ok', post('198.51.100.7'));
    await bff.request('/api/config?deny', { headers: { 'x-test-address': '198.51.100.7' } });
    await bff.request('/api/config');
    expect(lines().map(({ msg, path, status, code }) => ({ msg, path, status, code }))).toEqual([
      { msg: 'request', path: '/api/session', status: 200, code: undefined },
      { msg: 'request', path: '/api/config', status: 403, code: 'forbidden_company' },
      { msg: 'request', path: '/api/config', status: 200, code: undefined },
    ]);
  });

  it('counts at most 10,000 addresses apart in a minute; the rest share one line', async () => {
    let time = Date.UTC(2026, 0, 1, 10, 42, 5);
    const { bff, lines } = app(() => time);
    for (let i = 0; i < 10_005; i++)
      await bff.request('/api/session', post(`10.${i >> 16}.${(i >> 8) & 255}.${i & 255}`));
    time += 60_000;
    await bff.request('/api/session', post('198.51.100.7'));
    const refused = lines().filter((line) => line.msg === 'sign_in_refused');
    expect(refused).toHaveLength(10_001);
    expect(refused.at(-1)).toMatchObject({ address: 'other addresses', count: 5 });
  });
});
