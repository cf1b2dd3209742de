import { appConfigSchema, paymentPageSchema } from '@payments/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { bff, endedIdle, parseKeepingDigits, quietFetch, readJson } from './api-client.ts';
import { ApiError } from './api-error.ts';
import { idleDeadline, noteUserInput, resetSessionClock, takeNewsOfUser } from './session-clock.ts';
import { onSessionExpired } from './session-expiry.ts';

const problem = (status: number, code: string, extra: Record<string, unknown> = {}) =>
  new Response(
    JSON.stringify({
      type: `urn:x:${code}`,
      title: 't',
      status,
      detail: `detail of ${code}`,
      code,
      ...extra,
    }),
    {
      status,
      headers: { 'Content-Type': 'application/problem+json', 'Retry-After': '7' },
    },
  );

afterEach(() => vi.unstubAllGlobals());

describe('BFF client', () => {
  it('sends the anti-forgery header and the session cookie on every call', async () => {
    let seen: RequestInit | undefined;
    vi.stubGlobal('fetch', async (_input: string, init: RequestInit) => {
      seen = init;
      return new Response('{}');
    });
    await bff.api.config.$get();
    expect(new Headers(seen?.headers).get('X-CSRF')).toBe('1');
    expect(seen?.credentials).toBe('same-origin');
  });

  it('turns a problem+json answer into an error value with its code', async () => {
    vi.stubGlobal('fetch', async () => problem(429, 'rate_limited'));
    await expect(bff.api.config.$get()).rejects.toMatchObject({
      status: 429,
      code: 'rate_limited',
      detail: 'detail of rate_limited',
      retryAfterSeconds: 7,
      extra: {},
    });
  });

  it('keeps the problem members beyond the standard ones', async () => {
    vi.stubGlobal('fetch', async () => problem(429, 'rate_limited', { turn_in_seconds: 240 }));
    await expect(bff.api.config.$get()).rejects.toMatchObject({ extra: { turn_in_seconds: 240 } });
  });

  it('reports an expired session on a 401, but not from the session routes', async () => {
    const expired = vi.fn();
    const stop = onSessionExpired(expired);
    vi.stubGlobal('fetch', async () => problem(401, 'unauthenticated'));
    await expect(bff.api.session.$get(undefined, { fetch: quietFetch })).rejects.toMatchObject({
      status: 401,
    });
    expect(expired).not.toHaveBeenCalled();
    await expect(bff.api.config.$get()).rejects.toMatchObject({ code: 'unauthenticated' });
    expect(expired).toHaveBeenCalledTimes(1);
    expect(expired).toHaveBeenLastCalledWith('ended');
    vi.stubGlobal('fetch', async () => problem(401, 'unauthenticated', { reason: 'idle' }));
    await expect(bff.api.config.$get()).rejects.toMatchObject({ extra: { reason: 'idle' } });
    expect(expired).toHaveBeenLastCalledWith('idle');
    stop();
  });

  it('tells a session that ran out of idle time from one ended otherwise', () => {
    expect(endedIdle(new ApiError(401, 'unauthenticated', 'd', null, { reason: 'idle' }))).toBe(true);
    expect(endedIdle(new ApiError(401, 'unauthenticated', 'd'))).toBe(false);
    expect(endedIdle(new ApiError(403, 'forbidden_company', 'd', null, { reason: 'idle' }))).toBe(false);
  });

  it('names a lost connection as such', async () => {
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('Failed to fetch');
    });
    await expect(bff.api.config.$get()).rejects.toMatchObject({ status: 0, code: 'network_error' });
  });

  it('refuses an answer that is not what the screen expects, or not JSON at all', async () => {
    await expect(readJson(new Response('{"environment":"moon"}'), appConfigSchema)).rejects.toMatchObject({
      code: 'bad_response',
      detail: expect.stringContaining('environment'),
    });
    await expect(readJson(new Response('<html>proxy login</html>'), appConfigSchema)).rejects.toMatchObject({
      code: 'bad_response',
      detail: expect.stringContaining('not JSON'),
    });
  });

  it('keeps the code and detail of a problem, and falls back on the status for anything else', async () => {
    vi.stubGlobal('fetch', async () => problem(403, 'forbidden_company'));
    await expect(bff.api.config.$get()).rejects.toMatchObject({
      code: 'forbidden_company',
      detail: 'detail of forbidden_company',
    });
    vi.stubGlobal('fetch', async () => problem(502, 'a_code_from_the_future'));
    await expect(bff.api.config.$get()).rejects.toMatchObject({ status: 502, code: 'bad_response' });
    vi.stubGlobal(
      'fetch',
      async () => new Response('<html>gateway</html>', { status: 401, statusText: 'Unauthorized' }),
    );
    await expect(bff.api.config.$get()).rejects.toMatchObject({
      code: 'unauthenticated',
      detail: 'Unauthorized',
    });
  });
});

describe('the idle timeout', () => {
  function answering(headers: Record<string, string> = {}) {
    const sent: Array<string | null> = [];
    vi.stubGlobal('fetch', async (_input: string, init: RequestInit) => {
      sent.push(new Headers(init.headers).get('X-Background'));
      return new Response('{}', { headers });
    });
    return sent;
  }

  it('a request counts as use only after input since the last that did; any other goes as background', async () => {
    resetSessionClock();
    const sent = answering();
    await bff.api.config.$get();
    await bff.api.config.$get();
    noteUserInput();
    await bff.api.config.$get();
    await bff.api.session.$get(undefined, { fetch: quietFetch });
    // the freshness poll is background whatever the user did
    noteUserInput();
    await bff.api.config.$get(undefined, { headers: { 'X-Background': '1' } });
    expect(sent).toEqual([null, '1', null, '1', '1']);
    // and left the news for the next
    expect(takeNewsOfUser()).toBe(true);
  });

  it('news sent on a request that never arrived goes with the next', async () => {
    resetSessionClock();
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('Failed to fetch');
    });
    await expect(bff.api.config.$get()).rejects.toMatchObject({ code: 'network_error' });
    const sent = answering();
    await bff.api.config.$get();
    expect(sent).toEqual([null]);
  });

  it('follows the idle time left of every answer, failed ones too', async () => {
    resetSessionClock();
    answering({ 'X-Session-Idle-Left': '1800' });
    await bff.api.config.$get();
    expect(idleDeadline()).toBeGreaterThanOrEqual(Date.now() + 1_799_000);
    resetSessionClock();
    answering({ 'X-Session-Idle-Left': 'soon' });
    await bff.api.config.$get();
    expect(idleDeadline()).toBeNull();
  });
});

describe('reading an answer', () => {
  it('keeps the digits of integers beyond 2^53: ids as text, other numbers as sent', async () => {
    const page = await readJson(
      new Response(
        '{"data":[{"id":12345678901234567891,"amount":98765432109876543210,"fee":12}],"next_cursor":null,"has_more":false}',
      ),
      paymentPageSchema,
    );
    const [row] = page.data;
    expect(row?.id).toBe('12345678901234567891');
    expect(JSON.stringify(row?.amount)).toBe('98765432109876543210');
    expect(row?.fee).toBe(12);
  });

  it('reads a large integer written with an exponent as sent, and a page without one as plain JSON', () => {
    expect(JSON.stringify(parseKeepingDigits('{"amount":1e21,"fee":2.5e3}'))).toBe(
      '{"amount":1e21,"fee":2500}',
    );
    expect(parseKeepingDigits('{"id":9007199254740991,"amount":"1234567890123456789","n":[1,2]}')).toEqual({
      id: 9007199254740991,
      amount: '1234567890123456789',
      n: [1, 2],
    });
    expect(parseKeepingDigits('{"id":123,"counterparty":"Ana"}')).toEqual({ id: 123, counterparty: 'Ana' });
  });

  it('parses without a reviver when no number could be beyond 2^53, digits and e inside strings included', () => {
    const parse = vi.spyOn(JSON, 'parse');
    try {
      const text =
        '{"id":"3e5f0c2a-9b1d-4e7f-8a6b-1234567890123456","amount":1250,"note":"ref 12345678901234567"}';
      expect(parseKeepingDigits(text)).toEqual(JSON.parse(text));
      // the first call is the function's own: one argument, no reviver
      expect(parse.mock.calls[0]).toHaveLength(1);
      parse.mockClear();
      parseKeepingDigits('[12345678901234567890]');
      expect(parse.mock.calls[0]).toHaveLength(2);
    } finally {
      parse.mockRestore();
    }
  });

  it('keeps every member of a record, whatever its type', async () => {
    const record = { id: 42, amount: '12,50', counterparty: { name: 'Ana' }, status: 7, extra: [1, null] };
    const page = await readJson(
      new Response(JSON.stringify({ data: [record], next_cursor: null, has_more: false })),
      paymentPageSchema,
    );
    expect(page.data).toEqual([record]);
  });
});
