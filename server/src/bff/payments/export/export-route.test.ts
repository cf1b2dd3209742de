import { EventEmitter } from 'node:events';
import type { HttpBindings } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../../testing/bff-harness.ts';

let h: Harness;
let cookie: string;

beforeAll(async () => {
  h = await createHarness();
  cookie = await h.signIn();
});
afterAll(async () => {
  await h.close();
});

/** The node server's response as the route sees it: it closes when told, and counts the resets it was asked for. */
function fakeResponse() {
  const response = Object.assign(new EventEmitter(), {
    destroyed: false,
    resets: 0,
    socket: {
      resetAndDestroy() {
        response.resets += 1;
        response.close();
      },
    },
    destroy() {
      response.close();
    },
    close() {
      response.destroyed = true;
      response.emit('close');
    },
  });
  return response;
}

/** A download as the node server runs it, its response the fake's. */
function download(path: string, response: ReturnType<typeof fakeResponse>) {
  const env = { outgoing: response } as unknown as HttpBindings;
  return h.bff.app.request(path, { headers: { 'X-CSRF': '1', cookie, 'X-Company-Id': 'acme-eu-de' } }, env);
}

describe('export places', () => {
  it('stay held after the walk ended, until the download has left the process', async () => {
    const responses = [fakeResponse(), fakeResponse()];
    const files = await Promise.all([
      download('/api/payments/export.csv', responses[0] as ReturnType<typeof fakeResponse>),
      download('/api/payments/export.xlsx', responses[1] as ReturnType<typeof fakeResponse>),
    ]);
    // Both files whole: their walks are over, but their bytes may still be on the way to the client.
    await Promise.all(files.map((file) => file.arrayBuffer()));
    const third = fakeResponse();
    expect((await download('/api/payments/export.csv', third)).status).toBe(429);
    responses[0]?.close();
    const fourthResponse = fakeResponse();
    const fourth = await download('/api/payments/export.xlsx', fourthResponse);
    expect(fourth.status).toBe(200);
    await fourth.body?.cancel();
    expect(responses.map((response) => response.resets)).toEqual([0, 0]);
    for (const response of [responses[1], third, fourthResponse]) response?.close();
  });

  it('answers HEAD of either format with its headers alone', async () => {
    for (const format of ['csv', 'xlsx']) {
      const response = await h.call(`/api/payments/export.${format}?date_to=2026-01-31T23:59:59`, {
        cookie,
        method: 'HEAD',
      });
      expect(response.headers.get('content-disposition')).toBe(
        `attachment; filename="payments_acme_until_2026-01-31_UTC.${format}"`,
      );
    }
  });
});
